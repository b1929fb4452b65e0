import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
    /// Stores a batch and, in the same transaction, what was read of its file, so that a crash
    /// never leaves samples counted without the resume point that covers them (or the reverse).
    @discardableResult
    public func storeMetrics(_ batch: MetricBatch, file: WatchedFileState? = nil) async throws -> MetricWriteOutcome {
        try await asyncWrite { db in
            var outcome = MetricWriteOutcome()
            try Self.storeSamples(batch.samples, db, &outcome)
            try Self.storeIntervals(batch.intervals, db, &outcome)
            try Self.storeExportAggregates(batch, db, &outcome)
            if let file { try Self.saveWatchedFile(file, db) }
            return outcome
        }
    }

    private static func storeSamples(_ samples: [MetricSampleRow], _ db: Database, _ outcome: inout MetricWriteOutcome)
        throws
    {
        guard !samples.isEmpty else { return }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO metricSample (metric, source, start, end, value, day) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """)
        let add = try db.makeStatement(
            sql: """
                INSERT INTO metricDaily (metric, day, source, origin, value, count) VALUES (?, ?, ?, 'samples', ?, 1)
                ON CONFLICT (metric, day, source, origin)
                DO UPDATE SET value = value + excluded.value, count = count + 1
                """)
        for sample in samples {
            let day = sample.day.description
            try insert.execute(arguments: [sample.metric, sample.source, sample.start, sample.end, sample.value, day])
            let inserted = db.changesCount > 0
            outcome.count(inserted: inserted, day: sample.day)
            if inserted { try add.execute(arguments: [sample.metric, day, sample.source, sample.value]) }
        }
    }

    private static func storeIntervals(
        _ intervals: [MetricIntervalRow], _ db: Database, _ outcome: inout MetricWriteOutcome
    ) throws {
        guard !intervals.isEmpty else { return }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO metricInterval (kind, source, start, end, activity, minutes, day) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """)
        for interval in intervals {
            try insert.execute(arguments: [
                interval.kind.rawValue, interval.source, interval.start, interval.end, interval.activity,
                interval.minutes, interval.day.description,
            ])
            outcome.count(inserted: db.changesCount > 0, day: interval.day)
        }
    }

    /// A complete export replaces the stored export total of each (metric, day, source) it holds,
    /// unless that total came from a newer export; an export cut short only raises totals.
    private static func storeExportAggregates(
        _ batch: MetricBatch, _ db: Database, _ outcome: inout MetricWriteOutcome
    ) throws {
        guard !batch.exportAggregates.isEmpty else { return }
        // What earlier exports stored, in one query (a few thousand rows per year of data).
        struct Key: Hashable {
            var metric: String
            var day: String
            var source: String
        }
        var stored: [Key: MetricWriteOutcome.StoredExportTotal] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT metric, day, source, value, count, exportDate FROM metricDaily WHERE origin = 'export'")
        while let row = try rows.next() {
            stored[Key(metric: row[0], day: row[1], source: row[2])] = .init(
                value: row[3], count: row[4], exportDate: row[5] ?? 0)
        }
        let upsert = try db.makeStatement(
            sql: """
                INSERT INTO metricDaily (metric, day, source, origin, value, count, exportDate)
                VALUES (?, ?, ?, 'export', ?, ?, ?)
                ON CONFLICT (metric, day, source, origin)
                DO UPDATE SET value = excluded.value, count = excluded.count, exportDate = excluded.exportDate
                """)
        let date = batch.exportDate ?? 0
        for row in batch.exportAggregates {
            let day = row.day.description
            let writes = outcome.countExportTotal(
                row, stored: stored[Key(metric: row.metric, day: day, source: row.source)], exportDate: date,
                exportComplete: batch.exportComplete)
            guard writes else { continue }
            try upsert.execute(arguments: [row.metric, day, row.source, row.value, row.count, date])
        }
    }
}

extension AppDatabase: MetricImportStore {}
