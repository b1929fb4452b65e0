import MorningProofCore

/// The SQL of the reads behind `MetricRowReader`, one text for both engines: SQLite runs it here,
/// PostgreSQL in `PostgresStore`. Parameters are written `$1`, `$2`..., which both engines read
/// (SQLite as parameters named "1", "2"...); `"end"` is quoted, a reserved word in PostgreSQL; every
/// argument is text (the account's id is cast, `CAST($1 AS bigint)`, which both read). Every query
/// reads one account's rows. Each query's columns are in the order its doc comment gives.
public struct MetricRowQuery: Hashable, Sendable {
    public var sql: String
    /// The values of `$1`, `$2`...
    public var arguments: [String]

    /// `MetricRowReader.sourceTotals` (`metrics` not empty): metric, day, source, value.
    public static func sourceTotals(account: Int64, from: LocalDay, to: LocalDay, metrics: [String]?)
        -> MetricRowQuery
    {
        var query = MetricRowQuery(
            sql: """
                SELECT metric, day, source, max(value) AS value FROM metricDaily
                WHERE accountId = CAST($1 AS bigint) AND day BETWEEN $2 AND $3
                """,
            arguments: [String(account), from.description, to.description])
        if let metrics {
            let first = query.arguments.count + 1
            query.sql += " AND metric IN (" + metrics.indices.map { "$\(first + $0)" }.joined(separator: ", ") + ")"
            query.arguments += metrics
        }
        query.sql += " GROUP BY metric, day, source ORDER BY day, metric, source"
        return query
    }

    /// `MetricRowReader.sleepTotals`: day, minutes.
    public static func sleepTotals(account: Int64, from: LocalDay, to: LocalDay) -> MetricRowQuery {
        MetricRowQuery(
            sql: """
                SELECT day, max(minutes) AS minutes FROM metricInterval
                WHERE accountId = CAST($1 AS bigint) AND kind = 'sleepTotal' AND day BETWEEN $2 AND $3 GROUP BY day
                """, arguments: [String(account), from.description, to.description])
    }

    /// `MetricRowReader.asleepIntervals`: start, end, day.
    public static func asleepIntervals(account: Int64, from: LocalDay, to: LocalDay) -> MetricRowQuery {
        MetricRowQuery(
            sql: """
                SELECT start, "end", day FROM metricInterval
                WHERE accountId = CAST($1 AS bigint) AND kind = 'sleep' AND day BETWEEN $2 AND $3
                """,
            arguments: [String(account), from.description, to.description])
    }

    /// `MetricRowReader.workouts`: day, source, start, end, activity, minutes.
    public static func workouts(account: Int64, from: LocalDay, to: LocalDay) -> MetricRowQuery {
        MetricRowQuery(
            sql: """
                SELECT day, source, start, "end", activity, minutes FROM metricInterval
                WHERE accountId = CAST($1 AS bigint) AND kind = 'workout' AND day BETWEEN $2 AND $3
                """, arguments: [String(account), from.description, to.description])
    }

    /// `MetricImportStore.metricDayRange`: first, last (days as text; both NULL when there is no data).
    public static func dayRange(account: Int64) -> MetricRowQuery {
        MetricRowQuery(
            sql: """
                SELECT min(d) AS first, max(d) AS last FROM (
                    SELECT min(day) AS d FROM metricDaily WHERE accountId = CAST($1 AS bigint)
                    UNION ALL SELECT max(day) FROM metricDaily WHERE accountId = CAST($1 AS bigint)
                    UNION ALL SELECT min(day) FROM metricInterval WHERE accountId = CAST($1 AS bigint)
                    UNION ALL SELECT max(day) FROM metricInterval WHERE accountId = CAST($1 AS bigint)) AS days
                """, arguments: [String(account)])
    }
}
