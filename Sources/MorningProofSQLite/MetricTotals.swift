import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
    /// The (metric, day, source) totals on `days` above their metric's ceiling: they do not count.
    public func metricTotalsAboveCeiling(on days: Set<LocalDay>) async throws
        -> [(metric: HealthMetric, total: SourceDayTotal)]
    {
        guard let first = days.min(), let last = days.max() else { return [] }
        let totals = try await asyncRead { db in
            try SQLiteMetricRows(db: db, account: accountID).sourceTotals(from: first, to: last, metrics: nil)
        }
        return MetricTotalRules.aboveCeiling(totals, on: days)
    }

    /// A metric's value (raw name of `HealthMetric`) on each day from `from` through `to` with
    /// data that counts, by the daily-total rules. `activity` filters workouts (`running`).
    public func metricValues(metric: String, from: LocalDay, to: LocalDay, activity: String? = nil) async throws
        -> [LocalDay: Double]
    {
        let kind = try HealthMetric.named(metric)
        return try await asyncRead { db in
            let priority = try Self.metricPriority(db, accountID: accountID)
            return try MetricTotalRules.days(
                [kind], from: from, to: to, activity: activity, priority: priority,
                rows: SQLiteMetricRows(db: db, account: accountID)
            ).compactMapValues { $0[kind.rawValue] }
        }
    }

    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw names.
    public func metricDays(from: LocalDay, to: LocalDay) async throws -> [LocalDay: [String: Double]] {
        try await asyncRead { db in
            let priority = try Self.metricPriority(db, accountID: accountID)
            return try MetricTotalRules.days(
                HealthMetric.allCases, from: from, to: to, activity: nil, priority: priority,
                rows: SQLiteMetricRows(db: db, account: accountID))
        }
    }

    static func metricPriority(_ db: Database, accountID: Int64) throws -> [String] {
        MetricTotalRules.priority(from: try storedSetting(db, SettingKey.metricSourcePriority, accountID: accountID))
    }

    /// The first and last day with any metric data, or nil when there is none.
    public func metricDayRange() async throws -> ClosedRange<LocalDay>? {
        let query = MetricRowQuery.dayRange(account: accountID)
        return try await asyncRead { db in
            let row = try Row.fetchOne(db, sql: query.sql, arguments: SQLiteMetricRows.arguments(query))
            guard let first = (row?["first"] as String?).flatMap({ LocalDay($0) }),
                let last = (row?["last"] as String?).flatMap({ LocalDay($0) })
            else { return nil }
            return first...last
        }
    }
}

/// `MetricRowReader` in one SQLite read: the shared queries (`MetricRowQuery`) through GRDB.
struct SQLiteMetricRows: MetricRowReader {
    let db: Database
    let account: Int64

    func sourceTotals(from: LocalDay, to: LocalDay, metrics: [String]?) throws -> [SourceDayTotal] {
        try rows(.sourceTotals(account: account, from: from, to: to, metrics: metrics)).compactMap { row in
            LocalDay(row["day"] as String).map {
                SourceDayTotal(metric: row["metric"], day: $0, source: row["source"], value: row["value"])
            }
        }
    }

    func sleepTotals(from: LocalDay, to: LocalDay) throws -> [(day: LocalDay, minutes: Double)] {
        try rows(.sleepTotals(account: account, from: from, to: to)).compactMap { row in
            LocalDay(row["day"] as String).map { (day: $0, minutes: row["minutes"] as Double) }
        }
    }

    func asleepIntervals(from: LocalDay, to: LocalDay) throws -> [SleepNights.Interval] {
        try rows(.asleepIntervals(account: account, from: from, to: to)).compactMap { row in
            LocalDay(row["day"] as String).map {
                SleepNights.Interval(start: row["start"], end: row["end"], endDay: $0)
            }
        }
    }

    func workouts(from: LocalDay, to: LocalDay) throws -> [MetricIntervalRow] {
        try rows(.workouts(account: account, from: from, to: to)).compactMap { row in
            LocalDay(row["day"] as String).map {
                MetricIntervalRow(
                    kind: .workout, source: row["source"], start: row["start"], end: row["end"],
                    activity: row["activity"], minutes: row["minutes"], day: $0)
            }
        }
    }

    private func rows(_ query: MetricRowQuery) throws -> [Row] {
        try Row.fetchAll(db, sql: query.sql, arguments: Self.arguments(query))
    }

    /// The query's arguments by name: SQLite names the parameter `$1` "1".
    static func arguments(_ query: MetricRowQuery) -> StatementArguments {
        var arguments: [String: (any DatabaseValueConvertible)?] = [:]
        for (index, argument) in query.arguments.enumerated() { arguments[String(index + 1)] = argument }
        return StatementArguments(arguments)
    }
}

extension AppDatabase: MetricStore {}
