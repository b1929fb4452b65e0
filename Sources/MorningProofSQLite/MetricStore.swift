import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: MetricStore {
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

    /// Every row the day totals of `from` through `to` are computed from, read in one snapshot.
    public func metricRows(from: LocalDay, to: LocalDay) async throws -> MetricRowSnapshot {
        try await asyncRead { db in
            try MetricRowSnapshot(
                from: from, to: to, priority: try Self.metricPriority(db, accountID: accountID),
                reading: SQLiteMetricRows(db: db, account: accountID))
        }
    }

    /// The account's source priority (`metrics.source-priority`), as the daily-total rules take it.
    static func metricPriority(_ db: Database, accountID: Int64) throws -> [String] {
        MetricTotalRules.priority(from: try storedSetting(db, SettingKey.metricSourcePriority, accountID: accountID))
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
