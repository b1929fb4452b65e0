import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The account's metrics, as `AppDatabase` reads them: the metric tables (the owner's filled by
/// `db copy` from the CLI's SQLite file, every account's by `POST /api/metrics`) through the same
/// queries (`MetricRowQuery`) and the same rules (`MetricTotalRules.days`).
extension PostgresStore: MetricStore {
    /// A metric's value (raw name of `HealthMetric`, or a name a person types) on each day from
    /// `from` through `to` with data that counts, by the daily-total rules. `activity` filters
    /// workouts. An unknown metric is not found. All reads of one call see one snapshot.
    public func metricValues(metric: String, from: LocalDay, to: LocalDay, activity: String?) async throws
        -> [LocalDay: Double]
    {
        let kind = try HealthMetric.named(metric)
        return try await transaction(.snapshot) { connection in
            let priority = MetricTotalRules.priority(
                from: try await Self.setting(
                    SettingKey.metricSourcePriority, of: accountID, connection, logger: logger))
            let days = try await Self.metricDays(
                [kind], of: accountID, from: from, to: to, activity: activity, priority: priority, connection,
                logger: logger)
            return days.compactMapValues { $0[kind.rawValue] }
        }
    }

    /// Every row the day totals of `from` through `to` are computed from, read in one snapshot.
    public func metricRows(from: LocalDay, to: LocalDay) async throws -> MetricRowSnapshot {
        try await transaction(.snapshot) { connection in
            let priority = MetricTotalRules.priority(
                from: try await Self.setting(
                    SettingKey.metricSourcePriority, of: accountID, connection, logger: logger))
            return try await Self.readingMetricRows(of: accountID, connection, logger: logger) { rows in
                try MetricRowSnapshot(from: from, to: to, priority: priority, reading: rows)
            }
        }
    }

    /// `MetricTotalRules.days` on the rows it asks for (`readingMetricRows`).
    static func metricDays(
        _ metrics: [HealthMetric], of account: Int64, from: LocalDay, to: LocalDay, activity: String?,
        priority: [String],
        _ connection: PostgresConnection, logger: Logger
    ) async throws -> [LocalDay: [String: Double]] {
        try await readingMetricRows(of: account, connection, logger: logger) { rows in
            try MetricTotalRules.days(metrics, from: from, to: to, activity: activity, priority: priority, rows: rows)
        }
    }

    /// `body` on the metric rows it asks for, each query run on `connection` the first time it is
    /// asked for: the rules read synchronously, postgres-nio does not, so `body` runs again with what
    /// was fetched until it asks for nothing new. As many queries as SQLite runs for the same call.
    static func readingMetricRows<T>(
        of account: Int64, _ connection: PostgresConnection, logger: Logger,
        _ body: (FetchedMetricRows) throws -> T
    ) async throws -> T {
        var rows = FetchedMetricRows(account: account)
        while true {
            do {
                return try body(rows)
            } catch let missing as FetchedMetricRows.Missing {
                try await rows.fetch(missing.query, connection, logger: logger)
            }
        }
    }
}

/// The metric rows fetched so far by one call, answering `MetricRowReader` by their query; a read
/// whose query was not run yet throws `Missing`.
struct FetchedMetricRows: MetricRowReader {
    /// A query to run before the rules can go on.
    struct Missing: Error {
        var query: MetricRowQuery
    }

    /// The account whose rows the queries read.
    let account: Int64
    private var fetched: [MetricRowQuery: [PostgresRow]] = [:]

    init(account: Int64) { self.account = account }

    /// Runs `query` (its `$n` are PostgreSQL's own parameters) and keeps its rows.
    mutating func fetch(_ query: MetricRowQuery, _ connection: PostgresConnection, logger: Logger) async throws {
        fetched[query] = try await connection.query(Self.postgresQuery(query), logger: logger).collect()
    }

    /// The query with its arguments bound to its `$n`.
    static func postgresQuery(_ query: MetricRowQuery) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: query.arguments.count)
        for argument in query.arguments { bindings.append(argument) }
        return PostgresQuery(unsafeSQL: query.sql, binds: bindings)
    }

    func sourceTotals(from: LocalDay, to: LocalDay, metrics: [String]?) throws -> [SourceDayTotal] {
        try rows(.sourceTotals(account: account, from: from, to: to, metrics: metrics)).compactMap { row in
            let (metric, day, source, value) = try row.decode((String, String, String, Double).self)
            return LocalDay(day).map { SourceDayTotal(metric: metric, day: $0, source: source, value: value) }
        }
    }

    func sleepTotals(from: LocalDay, to: LocalDay) throws -> [(day: LocalDay, minutes: Double)] {
        try rows(.sleepTotals(account: account, from: from, to: to)).compactMap { row in
            let (day, minutes) = try row.decode((String, Double).self)
            return LocalDay(day).map { (day: $0, minutes: minutes) }
        }
    }

    func asleepIntervals(from: LocalDay, to: LocalDay) throws -> [SleepNights.Interval] {
        try rows(.asleepIntervals(account: account, from: from, to: to)).compactMap { row in
            let (start, end, day) = try row.decode((Double, Double, String).self)
            return LocalDay(day).map { SleepNights.Interval(start: start, end: end, endDay: $0) }
        }
    }

    func workouts(from: LocalDay, to: LocalDay) throws -> [MetricIntervalRow] {
        try rows(.workouts(account: account, from: from, to: to)).compactMap { row in
            let (day, source, start, end, activity, minutes) = try row.decode(
                (String, String, Double, Double, String, Double).self)
            return LocalDay(day).map {
                MetricIntervalRow(
                    kind: .workout, source: source, start: start, end: end, activity: activity, minutes: minutes,
                    day: $0)
            }
        }
    }

    private func rows(_ query: MetricRowQuery) throws -> [PostgresRow] {
        guard let rows = fetched[query] else { throw Missing(query: query) }
        return rows
    }
}
