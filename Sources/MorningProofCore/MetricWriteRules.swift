/// How a batch's rows count when stored, for both engines: the engines find what is already
/// stored (a UNIQUE key, an export's earlier day total) and these rules say what it means.
extension MetricWriteOutcome {
    /// The export total already stored for one (metric, day, source).
    public struct StoredExportTotal: Sendable, Equatable {
        public var value: Double
        public var count: Int
        /// The date of the export it came from (seconds since 1970; 0 when unknown).
        public var exportDate: Double

        public init(value: Double, count: Int, exportDate: Double) {
            self.value = value
            self.count = count
            self.exportDate = exportDate
        }
    }

    /// Counts a sample or interval: stored for the first time (`inserted`) touches its day, one
    /// already stored is a duplicate.
    public mutating func count(inserted: Bool, day: LocalDay) {
        if inserted {
            recordsStored += 1
            daysTouched.insert(day)
        } else {
            duplicatesSkipped += 1
        }
    }

    /// Counts an export's day total against what an earlier export stored, and says whether it is
    /// written. A complete export replaces the stored total unless that came from a newer export;
    /// an export cut short only raises it (more records, and not older). A total equal to the
    /// stored one changes nothing.
    public mutating func countExportTotal(
        _ row: MetricAggregateRow, stored: StoredExportTotal?, exportDate: Double, exportComplete: Bool
    ) -> Bool {
        guard let stored else {
            recordsStored += row.count
            daysTouched.insert(row.day)
            return true
        }
        let replaces =
            exportComplete
            ? exportDate >= stored.exportDate : row.count > stored.count && exportDate >= stored.exportDate
        if !replaces || (stored.value == row.value && stored.count == row.count) {
            duplicatesSkipped += row.count
            return false
        }
        duplicatesSkipped += min(stored.count, row.count)
        recordsStored += max(0, row.count - stored.count)
        daysTouched.insert(row.day)
        return true
    }
}

extension MetricWriteOutcome {
    /// What a period's running total (`MetricSampleRow.isBucket`) sent again adds to its day: all
    /// of it when the period is new, the difference when it is larger than the one stored; nil
    /// (a duplicate, nothing written) when it is not larger. Sending the largest of several sends
    /// once gives the same total as sending them all, in any order.
    public static func bucketRaise(old: Double?, new: Double) -> Double? {
        guard let old else { return new }
        return new > old ? new - old : nil
    }
}
