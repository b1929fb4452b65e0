import Foundation
import GRDB
import MorningProofCore

extension SettingKey {
    /// Comma-separated source names (matched as case-insensitive parts of the source's name):
    /// the first one with data on a day gives that day's cumulative totals.
    public static let metricSourcePriority = "metrics.source-priority"
}

/// A stored day total of one source above its metric's ceiling (`HealthMetric.maximumPerDay`),
/// which the daily totals leave out.
public struct MetricTotalAboveCeiling: Sendable, Equatable {
    public var metric: HealthMetric
    public var day: LocalDay
    public var source: String
    public var value: Double
}

extension AppDatabase {
    /// The (metric, day, source) totals on `days` above their metric's ceiling: they do not count.
    public func metricTotalsAboveCeiling(on days: Set<LocalDay>) throws -> [MetricTotalAboveCeiling] {
        guard !days.isEmpty else { return [] }
        return try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT metric, day, source, max(value) AS value FROM metricDaily
                    WHERE day BETWEEN ? AND ? GROUP BY metric, day, source ORDER BY day, metric, source
                    """, arguments: [days.min()!.description, days.max()!.description])
            return rows.compactMap { row in
                guard let metric = HealthMetric(rawValue: row["metric"]), let day = LocalDay(row["day"] as String),
                    days.contains(day), row["value"] as Double > metric.maximumPerDay
                else { return nil }
                return MetricTotalAboveCeiling(metric: metric, day: day, source: row["source"], value: row["value"])
            }
        }
    }

    /// A day's value of a metric (raw name of `HealthMetric`), by the daily-total rules; nil when
    /// no data counts for that day. `activity` filters workouts (`running`).
    public func metricValue(metric: String, day: LocalDay, activity: String? = nil) throws -> Double? {
        guard let kind = HealthMetric(rawValue: metric) ?? HealthMetric(name: metric) else {
            throw MorningProofError.usage("unknown metric \"\(metric)\"")
        }
        let priority = DailyTotals.priority(from: try setting(SettingKey.metricSourcePriority))
        return try read { db in
            try DailyTotals.values(db, metrics: [kind], from: day, to: day, activity: activity, priority: priority)[
                day]?[
                    kind.rawValue]
        }
    }

    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw names.
    public func metricDays(from: LocalDay, to: LocalDay) throws -> [LocalDay: [String: Double]] {
        let priority = DailyTotals.priority(from: try setting(SettingKey.metricSourcePriority))
        return try read { db in
            try DailyTotals.values(
                db, metrics: HealthMetric.allCases, from: from, to: to, activity: nil, priority: priority)
        }
    }

    /// The first and last day with any metric data, or nil when there is none.
    public func metricDayRange() throws -> ClosedRange<LocalDay>? {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT min(d) AS first, max(d) AS last FROM (
                        SELECT min(day) AS d FROM metricDaily UNION ALL SELECT max(day) FROM metricDaily
                        UNION ALL SELECT min(day) FROM metricInterval UNION ALL SELECT max(day) FROM metricInterval)
                    """)
            guard let first = (row?["first"] as String?).flatMap({ LocalDay($0) }),
                let last = (row?["last"] as String?).flatMap({ LocalDay($0) })
            else { return nil }
            return first...last
        }
    }
}

/// The daily-total rules, applied to stored per-source totals and intervals.
enum DailyTotals {
    static func priority(from setting: String?) -> [String] {
        (setting ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    static func values(
        _ db: Database, metrics: [HealthMetric], from: LocalDay, to: LocalDay, activity: String?, priority: [String]
    ) throws -> [LocalDay: [String: Double]] {
        var result: [LocalDay: [String: Double]] = [:]
        let range: [DatabaseValueConvertible] = [from.description, to.description]
        let cumulative = metrics.filter(\.isCumulative).map(\.rawValue)
        if !cumulative.isEmpty {
            // Per (metric, day, source): the largest of the origins, since an export and a sample
            // file of the same source hold the same samples.
            let marks = cumulative.map { _ in "?" }.joined(separator: ", ")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT metric, day, source, max(value) AS value FROM metricDaily
                    WHERE day BETWEEN ? AND ? AND metric IN (\(marks)) GROUP BY metric, day, source
                    """, arguments: StatementArguments(range + cumulative))
            var bySource: [LocalDay: [String: [(String, Double)]]] = [:]
            for row in rows {
                guard let day = LocalDay(row["day"] as String) else { continue }
                // A source's day above the metric's ceiling is corrupt or mistyped: it never counts.
                let value: Double = row["value"]
                if let metric = HealthMetric(rawValue: row["metric"]), value > metric.maximumPerDay { continue }
                bySource[day, default: [:]][row["metric"], default: []].append((row["source"], value))
            }
            for (day, metrics) in bySource {
                for (metric, sources) in metrics {
                    result[day, default: [:]][metric] = pick(sources, priority: priority)
                }
            }
        }
        if metrics.contains(.sleep) {
            for (day, minutes) in try sleepMinutes(db, from: from, to: to) {
                result[day, default: [:]]["sleep"] = minutes
            }
        }
        if metrics.contains(.workouts) || metrics.contains(.workoutMinutes) {
            for (day, workouts) in try self.workouts(db, range: range, activity: activity) {
                if metrics.contains(.workouts) { result[day, default: [:]]["workouts"] = Double(workouts.count) }
                if metrics.contains(.workoutMinutes) { result[day, default: [:]]["workoutMinutes"] = workouts.minutes }
            }
        }
        // Sleep and workouts are not per source: a day above the ceiling does not count at all.
        for (day, values) in result {
            for (name, value) in values where value > (HealthMetric(rawValue: name)?.maximumPerDay ?? .infinity) {
                result[day]?[name] = nil
            }
            if result[day]?.isEmpty == true { result[day] = nil }
        }
        return result
    }

    /// The day's value from per-source sums: the first source in `priority` with data, else the largest.
    static func pick(_ sources: [(name: String, value: Double)], priority: [String]) -> Double {
        for wanted in priority {
            let matching = sources.filter { $0.name.lowercased().contains(wanted) }
            if let best = matching.map(\.value).max() { return best }
        }
        return sources.map(\.value).max() ?? 0
    }

    /// Workouts starting on each day; the same workout recorded by two sources (overlapping by
    /// more than half of the shorter) counts once, with the longer duration.
    static func workouts(_ db: Database, range: [DatabaseValueConvertible], activity: String?) throws -> [LocalDay: (
        count: Int, minutes: Double
    )] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT day, source, start, end, activity, minutes FROM metricInterval
                WHERE kind = 'workout' AND day BETWEEN ? AND ? ORDER BY day, start
                """, arguments: StatementArguments(range))
        var kept: [LocalDay: [(source: String, start: Double, end: Double, minutes: Double)]] = [:]
        for row in rows {
            guard let day = LocalDay(row["day"] as String) else { continue }
            if let activity, !ActivityNames.matches(row["activity"], filter: activity) { continue }
            if row["minutes"] as Double > HealthMetric.workoutMinutes.maximumPerDay { continue }
            let workout = (
                source: row["source"] as String, start: row["start"] as Double, end: row["end"] as Double,
                minutes: row["minutes"] as Double
            )
            var list = kept[day, default: []]
            if let index = list.firstIndex(where: { isSameWorkout($0, workout) }) {
                if workout.minutes > list[index].minutes { list[index] = workout }
            } else {
                list.append(workout)
            }
            kept[day] = list
        }
        return kept.mapValues { (count: $0.count, minutes: $0.reduce(0) { $0 + $1.minutes }) }
    }

    private static func isSameWorkout(
        _ a: (source: String, start: Double, end: Double, minutes: Double),
        _ b: (source: String, start: Double, end: Double, minutes: Double)
    ) -> Bool {
        guard a.source != b.source else { return false }
        let overlap = min(a.end, b.end) - max(a.start, b.start)
        let shorter = min(a.end - a.start, b.end - b.start)
        return shorter > 0 && overlap > shorter / 2
    }
}

/// Workout activity names: `HKWorkoutActivityTypeRunning`, `Outdoor Run` and `running` all match `running`.
public enum ActivityNames {
    /// A stored activity name: lowercase letters only, without Apple's `HKWorkoutActivityType` prefix.
    public static func normalized(_ name: String) -> String {
        var text = name
        if text.hasPrefix("HKWorkoutActivityType") { text.removeFirst("HKWorkoutActivityType".count) }
        return String(text.lowercased().filter { $0.isLetter })
    }

    /// True when `activity` is the kind `filter` names: `running` matches `outdoorrun`, `cycling` `indoorcycle`.
    public static func matches(_ activity: String, filter: String) -> Bool {
        let wanted = normalized(filter)
        guard !wanted.isEmpty else { return true }
        let name = normalized(activity)
        if name.contains(wanted) { return true }
        var stem = wanted
        for suffix in ["ning", "ing", "s"] where stem.hasSuffix(suffix) && stem.count > suffix.count + 2 {
            stem.removeLast(suffix.count)
            break
        }
        return name.contains(stem)
    }
}
