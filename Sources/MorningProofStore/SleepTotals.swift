import GRDB
import MorningProofCore

extension DailyTotals {
    /// Minutes asleep credited to each day from `from` through `to` (`MetricTotalRules.sleepMinutes`).
    /// Computed when asked, so a night read in two halves totals as one read whole.
    static func sleepMinutes(_ db: Database, from: LocalDay, to: LocalDay) throws -> [LocalDay: Double] {
        let totals = try Row.fetchAll(
            db,
            sql: """
                SELECT day, max(minutes) AS minutes FROM metricInterval
                WHERE kind = 'sleepTotal' AND day BETWEEN ? AND ? GROUP BY day
                """, arguments: [from.description, to.description]
        ).compactMap { row in LocalDay(row["day"] as String).map { (day: $0, minutes: row["minutes"] as Double) } }
        return try MetricTotalRules.sleepMinutes(from: from, to: to, totals: totals) { first, last in
            try asleepIntervals(db, from: first, to: last)
        }
    }

    private static func asleepIntervals(_ db: Database, from: LocalDay, to: LocalDay) throws -> [SleepNights.Interval] {
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT start, end, day FROM metricInterval WHERE kind = 'sleep' AND day BETWEEN ? AND ?",
            arguments: [from.description, to.description])
        return rows.compactMap { row in
            LocalDay(row["day"] as String).map {
                SleepNights.Interval(start: row["start"], end: row["end"], endDay: $0)
            }
        }
    }
}
