import Foundation
import GRDB
import MorningProofCore

extension SettingKey {
    /// Comma-separated source names (matched as case-insensitive parts of the source's name):
    /// the first one with data on a day gives that day's cumulative totals.
    public static let metricSourcePriority = "metrics.source-priority"
}

extension AppDatabase {
    /// Metrics come from the files of the machine's owner (the CLI's `source`s): another account
    /// has none, and never reads the owner's.
    var ownsMetrics: Bool { accountID == AccountProfile.ownerID }

    /// The (metric, day, source) totals on `days` above their metric's ceiling: they do not count.
    public func metricTotalsAboveCeiling(on days: Set<LocalDay>) throws
        -> [(metric: HealthMetric, total: SourceDayTotal)]
    {
        guard ownsMetrics, let first = days.min(), let last = days.max() else { return [] }
        let totals = try read { db in try DailyTotals.sourceTotals(db, from: first, to: last, metrics: nil) }
        return MetricTotalRules.aboveCeiling(totals, on: days)
    }

    /// A day's value of a metric (raw name of `HealthMetric`), by the daily-total rules; nil when
    /// no data counts for that day. `activity` filters workouts (`running`).
    public func metricValue(metric: String, day: LocalDay, activity: String? = nil) throws -> Double? {
        let kind = try HealthMetric.named(metric)
        guard ownsMetrics else { return nil }
        let priority = MetricTotalRules.priority(from: try setting(SettingKey.metricSourcePriority))
        return try read { db in
            try DailyTotals.values(db, metrics: [kind], from: day, to: day, activity: activity, priority: priority)[
                day]?[
                    kind.rawValue]
        }
    }

    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw names.
    public func metricDays(from: LocalDay, to: LocalDay) throws -> [LocalDay: [String: Double]] {
        guard ownsMetrics else { return [:] }
        let priority = MetricTotalRules.priority(from: try setting(SettingKey.metricSourcePriority))
        return try read { db in
            try DailyTotals.values(
                db, metrics: HealthMetric.allCases, from: from, to: to, activity: nil, priority: priority)
        }
    }

    /// The first and last day with any metric data, or nil when there is none.
    public func metricDayRange() throws -> ClosedRange<LocalDay>? {
        guard ownsMetrics else { return nil }
        return try read { db in
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

/// The stored rows that `MetricTotalRules` turns into daily values.
enum DailyTotals {
    static func values(
        _ db: Database, metrics: [HealthMetric], from: LocalDay, to: LocalDay, activity: String?, priority: [String]
    ) throws -> [LocalDay: [String: Double]] {
        var result: [LocalDay: [String: Double]] = [:]
        let cumulative = metrics.filter(\.isCumulative).map(\.rawValue)
        if !cumulative.isEmpty {
            let totals = try sourceTotals(db, from: from, to: to, metrics: cumulative)
            result = MetricTotalRules.cumulative(totals, priority: priority)
        }
        if metrics.contains(.sleep) {
            for (day, minutes) in try sleepMinutes(db, from: from, to: to) {
                result[day, default: [:]]["sleep"] = minutes
            }
        }
        if metrics.contains(.workouts) || metrics.contains(.workoutMinutes) {
            let rows = try workoutRows(db, from: from, to: to)
            for (day, workouts) in MetricTotalRules.workouts(rows, activity: activity) {
                if metrics.contains(.workouts) { result[day, default: [:]]["workouts"] = Double(workouts.count) }
                if metrics.contains(.workoutMinutes) { result[day, default: [:]]["workoutMinutes"] = workouts.minutes }
            }
        }
        return MetricTotalRules.withoutImpossibleValues(result)
    }

    /// Per (metric, day, source): the largest of the origins, since an export and a sample file of the
    /// same source hold the same samples. `metrics` nil means every metric.
    static func sourceTotals(_ db: Database, from: LocalDay, to: LocalDay, metrics: [String]?) throws
        -> [SourceDayTotal]
    {
        var sql = "SELECT metric, day, source, max(value) AS value FROM metricDaily WHERE day BETWEEN ? AND ?"
        var arguments: [DatabaseValueConvertible] = [from.description, to.description]
        if let metrics {
            sql += " AND metric IN (\(metrics.map { _ in "?" }.joined(separator: ", ")))"
            arguments += metrics
        }
        sql += " GROUP BY metric, day, source ORDER BY day, metric, source"
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).compactMap { row in
            LocalDay(row["day"] as String).map {
                SourceDayTotal(metric: row["metric"], day: $0, source: row["source"], value: row["value"])
            }
        }
    }

    /// Workouts starting from `from` through `to`, ordered by day and start.
    static func workoutRows(_ db: Database, from: LocalDay, to: LocalDay) throws -> [MetricIntervalRow] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT day, source, start, end, activity, minutes FROM metricInterval
                WHERE kind = 'workout' AND day BETWEEN ? AND ? ORDER BY day, start
                """, arguments: [from.description, to.description]
        ).compactMap { row in
            LocalDay(row["day"] as String).map {
                MetricIntervalRow(
                    kind: .workout, source: row["source"], start: row["start"], end: row["end"],
                    activity: row["activity"], minutes: row["minutes"], day: $0)
            }
        }
    }
}
