import GRDB
import MorningProofCore

extension DailyTotals {
    /// Minutes asleep credited to each day from `from` through `to`: each night (the union of
    /// asleep intervals of all sources, split on gaps of 4 hours or more) counts whole for the day
    /// of its last asleep instant; a night given only as a total (Health Auto Export) counts when
    /// it is larger. Computed when asked, so a night read in two halves totals as one read whole.
    static func sleepMinutes(_ db: Database, from: LocalDay, to: LocalDay) throws -> [LocalDay: Double] {
        // Intervals are stored with the day of their end. One ending after `to + 2` starts at least
        // 22 hours after `to` ends (intervals last at most 24 hours), so it cannot join a night
        // ending by `to`. Below, widen while a night counted in range reaches the window's edge.
        let upper = to.adding(days: 2)
        var lower = from.adding(days: -3)
        var intervals = try asleepIntervals(db, from: lower, to: upper)
        var counted: [LocalDay: Double] = [:]
        while true {
            let nights = SleepNights.nights(intervals).filter { $0.day >= from && $0.day <= to }
            counted = [:]
            for night in nights { counted[night.day, default: 0] += night.minutes }
            guard nights.contains(where: { $0.firstDay <= lower.adding(days: 1) }) else { break }
            let wider = lower.adding(days: -7)
            let more = try asleepIntervals(db, from: wider, to: lower.adding(days: -1))
            if more.isEmpty { break }
            intervals += more
            lower = wider
        }
        let totals = try Row.fetchAll(
            db,
            sql: """
                SELECT day, max(minutes) AS minutes FROM metricInterval
                WHERE kind = 'sleepTotal' AND day BETWEEN ? AND ? GROUP BY day
                """, arguments: [from.description, to.description])
        for row in totals {
            guard let day = LocalDay(row["day"] as String) else { continue }
            counted[day] = max(counted[day] ?? 0, row["minutes"])
        }
        return counted
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
