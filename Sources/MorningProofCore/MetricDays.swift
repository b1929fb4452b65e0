import Foundation

/// The stored rows that the daily-total rules are computed from, as a store fetches them with its
/// own queries. `MetricTotalRules.days` asks for the rows it needs, so every engine reads the same
/// rows and applies the same rules to them.
public protocol MetricRowReader {
    /// Per (metric, day, source), on days `from` through `to`, the largest of its origins' totals (an
    /// export and a sample file of one source hold the same samples). `metrics` nil means every
    /// metric; otherwise it is not empty.
    func sourceTotals(from: LocalDay, to: LocalDay, metrics: [String]?) throws -> [SourceDayTotal]
    /// Per wake day from `from` through `to`, the largest night given only as a total (`sleepTotal`).
    func sleepTotals(from: LocalDay, to: LocalDay) throws -> [(day: LocalDay, minutes: Double)]
    /// The asleep intervals (`sleep`) that end on days `from` through `to`, in any order.
    func asleepIntervals(from: LocalDay, to: LocalDay) throws -> [SleepNights.Interval]
    /// The workouts that start on days `from` through `to`, in any order.
    func workouts(from: LocalDay, to: LocalDay) throws -> [MetricIntervalRow]
}

extension MetricTotalRules {
    /// The value of each of `metrics` on each day from `from` through `to` that has data that
    /// counts, keyed by `HealthMetric` raw name: cumulative metrics by `cumulative` (the source
    /// `priority` names first), sleep by `sleepMinutes`, workouts by `workouts` (of `activity`
    /// only, when given), then `withoutImpossibleValues`.
    public static func days(
        _ metrics: [HealthMetric], from: LocalDay, to: LocalDay, activity: String?, priority: [String],
        rows: some MetricRowReader
    ) throws -> [LocalDay: [String: Double]] {
        var result: [LocalDay: [String: Double]] = [:]
        let cumulativeNames = metrics.filter(\.isCumulative).map(\.rawValue)
        if !cumulativeNames.isEmpty {
            result = Self.cumulative(
                try rows.sourceTotals(from: from, to: to, metrics: cumulativeNames), priority: priority)
        }
        if metrics.contains(.sleep) {
            let totals = try rows.sleepTotals(from: from, to: to)
            let minutes = try Self.sleepMinutes(
                from: from, to: to, totals: totals, ceiling: HealthMetric.sleep.maximumPerDay,
                lookBackDays: SleepNights.longestLookBackDays
            ) { first, last in
                try rows.asleepIntervals(from: first, to: last)
            }
            for (day, minutes) in minutes { result[day, default: [:]][HealthMetric.sleep.rawValue] = minutes }
        }
        if metrics.contains(.workouts) || metrics.contains(.workoutMinutes) {
            for (day, workouts) in Self.workouts(try rows.workouts(from: from, to: to), activity: activity) {
                if metrics.contains(.workouts) {
                    result[day, default: [:]][HealthMetric.workouts.rawValue] = Double(workouts.count)
                }
                if metrics.contains(.workoutMinutes) {
                    result[day, default: [:]][HealthMetric.workoutMinutes.rawValue] = workouts.minutes
                }
            }
        }
        return Self.withoutImpossibleValues(result)
    }
}

/// The rows the daily totals of a range are computed from, read at once (`MetricStore.metricRows`)
/// so that the rules run apart from the database, on the server's CPU pool: every row that
/// `MetricTotalRules.days` asks for on that range, and no more.
public struct MetricRowSnapshot: MetricRowReader, Sendable {
    /// A read of days the snapshot does not hold: a fault of the caller, never of the data.
    public struct OutsideSnapshot: Error {}

    /// The days whose totals were read.
    public let from: LocalDay
    public let to: LocalDay
    /// The account's source priority (`MetricTotalRules.priority`).
    public let priority: [String]
    /// The end days of the asleep intervals read: `sleepMinutes` never asks for others.
    public let intervalDays: ClosedRange<LocalDay>
    private let totals: [SourceDayTotal]
    private let nightTotals: [(day: LocalDay, minutes: Double)]
    private let intervals: [SleepNights.Interval]
    private let workoutRows: [MetricIntervalRow]

    /// Reads the rows of `from` through `to` through `rows` (a store's reader, in one snapshot).
    public init(from: LocalDay, to: LocalDay, priority: [String], reading rows: some MetricRowReader) throws {
        guard from <= to else { throw MorningProofError.usage("the range ends (\(to)) before it starts (\(from))") }
        self.from = from
        self.to = to
        self.priority = priority
        intervalDays = MetricTotalRules.sleepReadDays(
            from: from, to: to, lookBackDays: SleepNights.longestLookBackDays)
        totals = try rows.sourceTotals(from: from, to: to, metrics: nil)
        nightTotals = try rows.sleepTotals(from: from, to: to)
        intervals = try rows.asleepIntervals(from: intervalDays.lowerBound, to: intervalDays.upperBound)
        workoutRows = try rows.workouts(from: from, to: to)
    }

    /// The rows read: what a read of this range costs.
    public var count: Int { totals.count + nightTotals.count + intervals.count + workoutRows.count }

    /// Every metric with data on each day of the range, keyed by `HealthMetric` raw names: the
    /// daily-total rules on the rows read, as the stores' `metricDays` answers.
    public func days() throws -> [LocalDay: [String: Double]] {
        try MetricTotalRules.days(
            HealthMetric.allCases, from: from, to: to, activity: nil, priority: priority, rows: self)
    }

    public func sourceTotals(from first: LocalDay, to last: LocalDay, metrics: [String]?) throws -> [SourceDayTotal] {
        try check(first, last, within: from...to)
        return totals.filter { $0.day >= first && $0.day <= last && metrics?.contains($0.metric) != false }
    }

    public func sleepTotals(from first: LocalDay, to last: LocalDay) throws -> [(day: LocalDay, minutes: Double)] {
        try check(first, last, within: from...to)
        return nightTotals.filter { $0.day >= first && $0.day <= last }
    }

    public func asleepIntervals(from first: LocalDay, to last: LocalDay) throws -> [SleepNights.Interval] {
        try check(first, last, within: intervalDays)
        return intervals.filter { $0.endDay >= first && $0.endDay <= last }
    }

    public func workouts(from first: LocalDay, to last: LocalDay) throws -> [MetricIntervalRow] {
        try check(first, last, within: from...to)
        return workoutRows.filter { $0.day >= first && $0.day <= last }
    }

    private func check(_ first: LocalDay, _ last: LocalDay, within days: ClosedRange<LocalDay>) throws {
        guard first > last || (days.contains(first) && days.contains(last)) else { throw OutsideSnapshot() }
    }
}
