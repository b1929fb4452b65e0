import Foundation
import MorningProofCore

/// A byte-level scanner for Apple Health `export.xml`, fed chunk by chunk.
///
/// It never parses the DTD (iOS 16+ exports carry an `<!ATTLIST` that is never closed, which
/// stops validating parsers): it jumps from `<` to `<` with memchr and looks only at the tags it
/// needs: `<Record `, `<Workout `, `<WorkoutStatistics `, `<ActivitySummary `, `<Correlation`,
/// `<ExportDate ` and `</HealthData>`. Records inside a `<Correlation>` are skipped: the export
/// repeats them at top level.
struct AppleHealthScanner {
    var totals: ExportTotals
    let fileName: String
    var warnings: [ReadWarning] = []
    var warningCount = 0
    /// True once `</HealthData>` was seen: the export is complete.
    var sawEnd = false
    var sawHealthData = false
    private var correlationDepth = 0
    private var sourceBytes: [[UInt8]] = []
    private var dates = AppleDateParser()

    init(totals: ExportTotals, fileName: String) {
        self.totals = totals
        self.fileName = fileName
    }

    /// Reads every complete tag in `buffer` (which starts at byte `offset` of the file) and returns
    /// how many bytes were consumed; the rest must be passed again with more data after it.
    /// At the end of the input (`final`), an unfinished tag is left unconsumed.
    mutating func scan(_ buffer: UnsafeRawBufferPointer, offset: Int64, final: Bool) -> Int {
        guard let raw = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = buffer.count
        var i = 0
        while i < count {
            guard let found = memchr(base + i, 0x3C, count - i) else { return count }
            let p = UnsafeRawPointer(found) - raw
            if count - p < 24 && !final { return p }
            let kind = Self.classify(base + p + 1, count - p - 1)
            if kind == .other {
                i = p + 1
                continue
            }
            guard let close = memchr(base + p, 0x3E, count - p) else { return p }
            let gt = UnsafeRawPointer(close) - raw
            let tag = XMLTag(base: base, start: p + 1 + kind.nameLength, end: gt)
            handle(kind, tag, at: offset + Int64(p))
            i = gt + 1
        }
        return count
    }

    enum TagKind {
        case other, record, workout, workoutStatistics, activitySummary, correlationOpen, correlationClose
        case exportDate, healthData, healthDataClose

        var nameLength: Int {
            switch self {
            case .record: 6
            case .workout: 7
            case .workoutStatistics: 17
            case .activitySummary: 15
            case .correlationOpen: 11
            case .correlationClose: 12
            case .exportDate: 10
            case .healthData: 10
            case .healthDataClose: 11
            case .other: 0
            }
        }
    }

    @inline(__always)
    private static func classify(_ p: UnsafePointer<UInt8>, _ available: Int) -> TagKind {
        @inline(__always) func matches(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            return available >= n && memcmp(p, literal.utf8Start, n) == 0
        }
        switch p[0] {
        case 0x52: return matches("Record ") || matches("Record\n") ? .record : .other  // R
        case 0x57:  // W
            if matches("Workout ") || matches("Workout\n") { return .workout }
            if matches("WorkoutStatistics ") { return .workoutStatistics }
            return .other
        case 0x41: return matches("ActivitySummary ") ? .activitySummary : .other
        case 0x43:
            if matches("Correlation ") || matches("Correlation>") || matches("Correlation\n") {
                return .correlationOpen
            }
            return .other
        case 0x45: return matches("ExportDate ") ? .exportDate : .other
        case 0x48: return matches("HealthData ") || matches("HealthData>") ? .healthData : .other
        case 0x2F:  // '/'
            if matches("/Correlation>") { return .correlationClose }
            if matches("/HealthData>") { return .healthDataClose }
            return .other
        default: return .other
        }
    }

    private mutating func handle(_ kind: TagKind, _ tag: XMLTag, at offset: Int64) {
        switch kind {
        case .record:
            if correlationDepth == 0 { record(tag, at: offset) }
        case .workout: workout(tag, at: offset)
        case .workoutStatistics: break  // per-workout totals; the day's totals come from the records
        case .activitySummary: activitySummary(tag, at: offset)
        case .correlationOpen:
            if tag.end == 0 || tag.base[tag.end - 1] != 0x2F { correlationDepth += 1 }
        case .correlationClose: correlationDepth = max(0, correlationDepth - 1)
        case .exportDate:
            _ = tag.forEachAttribute { n, nl, v, vl in
                if tag.equals(n, nl, "value") { totals.exportDate = HealthDate.seconds(tag.bytes(v, vl)) }
                return true
            }
        case .healthData: sawHealthData = true
        case .healthDataClose: sawEnd = true
        case .other: break
        }
    }

    /// What a `type` attribute names: a cumulative metric, sleep, mindful, or nothing we count.
    private enum RecordType {
        case quantity(HealthMetric), sleep, mindful, none

        var isQuantity: Bool {
            if case .quantity = self { return true }
            return false
        }
    }

    @inline(__always)
    private static func recordType(_ tag: XMLTag, _ v: Int, _ vl: Int) -> RecordType {
        let prefix = 24  // HKQuantityTypeIdentifier / HKCategoryTypeIdentifier
        guard vl > prefix else { return .none }
        if tag.hasPrefix(v, vl, "HKQuantityTypeIdentifier") {
            let s = v + prefix, l = vl - prefix
            if tag.equals(s, l, "StepCount") { return .quantity(.steps) }
            if tag.equals(s, l, "ActiveEnergyBurned") { return .quantity(.activeEnergy) }
            if tag.equals(s, l, "DistanceWalkingRunning") { return .quantity(.distance) }
            if tag.equals(s, l, "AppleExerciseTime") { return .quantity(.exerciseMinutes) }
            return .none
        }
        if tag.hasPrefix(v, vl, "HKCategoryTypeIdentifier") {
            let s = v + prefix, l = vl - prefix
            if tag.equals(s, l, "SleepAnalysis") { return .sleep }
            if tag.equals(s, l, "MindfulSession") { return .mindful }
        }
        return .none
    }

    private mutating func record(_ tag: XMLTag, at offset: Int64) {
        var type = RecordType.none
        var source = -1
        var unit: (Int, Int) = (0, 0)
        var value: (Int, Int)?
        var start: Double?
        var endText: (Int, Int)?
        var first = true
        var typeSeen = false
        let wellFormed = tag.forEachAttribute { n, nl, v, vl in
            if first {
                first = false
                if tag.equals(n, nl, "type") {
                    typeSeen = true
                    type = Self.recordType(tag, v, vl)
                    if case .none = type { return false }
                    return true
                }
            }
            switch nl {
            case 4:
                if tag.equals(n, nl, "type") {
                    typeSeen = true
                    type = Self.recordType(tag, v, vl)
                    if case .none = type { return false }
                } else if tag.equals(n, nl, "unit") {
                    unit = (v, vl)
                }
            case 5: if tag.equals(n, nl, "value") { value = (v, vl) }
            case 7: if tag.equals(n, nl, "endDate") { endText = (v, vl) }
            case 9: if tag.equals(n, nl, "startDate") { start = dates.seconds(tag.bytes(v, vl)) }
            case 10: if tag.equals(n, nl, "sourceName") { source = intern(tag, v, vl) }
            default: break
            }
            return true
        }
        if case .none = type {
            if !wellFormed && !typeSeen { warn(offset, "a Record tag that is not well formed was skipped") }
            return
        }
        guard wellFormed, let start else {
            return warn(offset, "a Record without a readable startDate was skipped")
        }
        // The end matters for sleep and mindful minutes, and for kept samples; else it is not parsed.
        var finish = start
        if let endText, totals.samples != nil || !type.isQuantity {
            guard let end = dates.seconds(tag.bytes(endText.0, endText.1)) else {
                return warn(offset, "a Record without a readable endDate was skipped")
            }
            finish = end
        }
        if source < 0 { source = internName("unknown") }
        switch type {
        case .quantity(let metric):
            guard let value, let amount = tag.number(value.0, value.1), amount.isFinite else {
                return warn(offset, "a \(metric.rawValue) Record without a numeric value was skipped")
            }
            guard let factor = unitFactor(tag, unit, metric) else {
                return warn(offset, "a \(metric.rawValue) Record in an unknown unit was skipped")
            }
            let base = amount * factor
            // Two comparisons on the hot path; the message is built only for a refused record.
            guard base >= 0 && base <= metric.maximumPerDay else {
                return warn(offset, "a Record was skipped: \(metric.implausibility(of: base) ?? "")")
            }
            totals.add(metric, source: Int32(source), start: start, end: finish, value: base)
        case .sleep:
            guard let value, tag.hasPrefix(value.0, value.1, "HKCategoryValueSleepAnalysisAsleep") else { return }
            guard finish > start else { return }
            guard finish - start <= HealthMetric.maximumIntervalSeconds else { return tooLong(offset, start, finish) }
            totals.addSleep(source: Int32(source), start: start, end: finish)
        case .mindful:
            guard finish > start else { return }
            guard finish - start <= HealthMetric.maximumIntervalSeconds else { return tooLong(offset, start, finish) }
            totals.add(.mindfulMinutes, source: Int32(source), start: start, end: finish, value: (finish - start) / 60)
        case .none: break
        }
    }

    // MARK: - Sources and units

    mutating func intern(_ tag: XMLTag, _ v: Int, _ vl: Int) -> Int {
        for (index, known) in sourceBytes.enumerated() where known.count == vl {
            if known.withUnsafeBytes({ memcmp($0.baseAddress!, tag.base + v, vl) }) == 0 { return index }
        }
        sourceBytes.append(Array(tag.bytes(v, vl)))
        return register(tag.string(v, vl))
    }

    mutating func internName(_ name: String) -> Int {
        if let index = totals.sources.firstIndex(of: name) { return index }
        sourceBytes.append([0xFF] + Array(name.utf8))  // never equal to a source's bytes
        return register(name)
    }

    private mutating func register(_ name: String) -> Int {
        totals.sources.append(name)
        return totals.sources.count - 1
    }

    private var unitCache: [UInt64: Double?] = [:]

    private mutating func unitFactor(_ tag: XMLTag, _ unit: (Int, Int), _ metric: HealthMetric) -> Double? {
        var key = UInt64(ExportTotals.index(metric)) << 56
        if unit.1 <= 6 {
            for k in 0..<unit.1 { key |= UInt64(tag.base[unit.0 + k]) << (8 * UInt64(k)) }
            if let cached = unitCache[key] { return cached }
        }
        let factor = MetricUnits.factor(from: tag.string(unit.0, unit.1), to: metric)
        if unit.1 <= 6 { unitCache[key] = factor }
        return factor
    }

    mutating func tooLong(_ offset: Int64, _ start: Double, _ end: Double) {
        warn(offset, "a record was skipped: \(SampleFields.implausibleInterval(start, end) ?? "longer than a day")")
    }

    mutating func warn(_ offset: Int64, _ message: String) {
        warningCount += 1
        if warnings.count < 50 {
            warnings.append(ReadWarning(file: fileName, location: "byte \(offset)", message: message))
        }
    }
}
