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
            let minutes = try Self.sleepMinutes(from: from, to: to, totals: totals) { first, last in
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
