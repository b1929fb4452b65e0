import Foundation

/// The seed API's daily check-in: one per account and local day, with the client's metrics.
public struct DailyUpdate: Sendable, Equatable {
    /// The local day it counts for, decided by the server's clock.
    public var day: LocalDay
    public var score: Double?
    public var metrics: [String: JSONValue]
    public var recordedAt: Date
    /// The zone in force when it was recorded.
    public var zone: String

    public init(day: LocalDay, score: Double?, metrics: [String: JSONValue], recordedAt: Date, zone: String) {
        self.day = day
        self.score = score
        self.metrics = metrics
        self.recordedAt = recordedAt
        self.zone = zone
    }
}

/// The streak of daily updates: a daily habit's streak under Core's rules, so that travel days
/// bridge it exactly as they bridge the CLI's habits.
public enum DailyUpdateStreak {
    /// The current and longest runs of days with an update, as of `today`.
    /// - Parameters:
    ///   - days: the days that have an update, in any order.
    ///   - travelDays: days on which the account's zone changed.
    ///   - clock: the account's clock; a day that it skipped entirely (Samoa's 2011-12-30) bridges.
    public static func of(days: [LocalDay], today: LocalDay, travelDays: Set<LocalDay>, clock: DayClock)
        -> (current: Int, longest: Int)
    {
        guard let first = days.min() else { return (0, 0) }
        let timeline = HabitTimeline(
            schedule: .daily, firstDay: min(first, today), today: today, recorded: days.map { ($0, .done) },
            travelDays: travelDays.union(neverToday(between: days, clock: clock)))
        return (timeline.currentStreak, timeline.longestStreak.length)
    }

    /// One-day gaps between updates that lasted no time at all in `clock`'s zone (a date line move).
    /// Only such gaps are looked at: a day that never happened is always a single day.
    static func neverToday(between days: [LocalDay], clock: DayClock) -> Set<LocalDay> {
        let sorted = days.sorted()
        var skipped: Set<LocalDay> = []
        for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.days(to: later) == 2 {
            let gap = earlier.adding(days: 1)
            if clock.length(of: gap) == 0 { skipped.insert(gap) }
        }
        return skipped
    }
}
