import Foundation
import MorningProofCore

/// One habit's report: streaks, completion, score and the days of the asked range
/// (`report --format json`, `GET /api/habits/{id}/report`).
public struct HabitReport: Encodable, Sendable {
    public struct Day: Encodable, Sendable {
        public var day: String
        public var state: String
        /// The habit's score (0 to 1) at the end of the day, as `score` is today's.
        public var score: Double?
    }

    public var name: String
    public var kind: String
    public var schedule: String
    public var currentStreak: Int
    public var longestStreak: Int
    public var longestStreakStart: String?
    public var longestStreakEnd: String?
    public var completionRate7: Double?
    public var completionRate30: Double?
    public var completionRate365: Double?
    public var score: Double
    public var totalDone: Int
    public var daysUntilBreak: Int
    public var days: [Day]

    public init(_ summary: HabitSummary) {
        name = summary.habit.name
        kind = summary.habit.kind.rawValue
        schedule = summary.habit.schedule.summary
        currentStreak = summary.currentStreak
        longestStreak = summary.longestStreak
        longestStreakStart = summary.longestStreakStart?.description
        longestStreakEnd = summary.longestStreakEnd?.description
        completionRate7 = summary.completionRate7.map(rounded)
        completionRate30 = summary.completionRate30.map(rounded)
        completionRate365 = summary.completionRate365.map(rounded)
        score = rounded(summary.score)
        totalDone = summary.totalDone
        daysUntilBreak = summary.daysUntilBreak
        days = summary.days.map {
            Day(day: $0.day.description, state: $0.state, score: summary.dayScores[$0.day].map(rounded))
        }
    }
}

/// A gate unlock as `report` shows it.
public struct GateUnlockJSON: Encodable, Sendable {
    public var day: String
    public var at: String
    public var reason: String

    public init(_ unlock: GateUnlock) {
        day = unlock.day.description
        at = ISOInstant.format(unlock.at, in: TimeZone(identifier: "UTC")!)
        reason = unlock.reason
    }
}

/// `report --format json` and `GET /api/habits/{id}/report`: each habit's report and the gate's
/// unlocks in the range.
public struct ReportJSON: Encodable, Sendable {
    public var habits: [HabitReport]
    public var gateUnlocks: [GateUnlockJSON]

    public init(_ report: Report) {
        habits = report.habits.map(HabitReport.init)
        gateUnlocks = report.gateUnlocks.map(GateUnlockJSON.init)
    }
}

/// `status --json` and `GET /api/status`: every active habit today.
public struct StatusJSON: Encodable, Sendable {
    public struct Item: Encodable, Sendable {
        public var name: String
        public var kind: String
        /// done, skipped, pending, travel (the zone changed today: the streak is safe, and the habit
        /// can still be done) or not due.
        public var state: String
        /// What `state` means for a person, where the word alone does not say it: "travel day: your
        /// streak is safe"; absent otherwise.
        public var stateSentence: String?
        public var currentStreak: Int
        public var longestStreak: Int
        public var daysUntilBreak: Int
        public var score: Double
        /// Who made today's entry (`manual`, `photo`, `metric`, `import`, `checkin`); absent without one.
        public var source: String?
        /// Today's entry's value (a metric goal's steps, minutes...), when it has one.
        public var value: Double?
        /// The schedule in words and as a request's fields, as the habit resource has them.
        public var schedule: String
        public var every: Int?
        public var times: Int?
        public var per: String?
        public var within: Int?
        /// For a target over a period: how far the period holding today is ("2 of 3 this week").
        public var period: PeriodJSON?
    }

    public var day: String
    public var habits: [Item]
    /// Excuses left in the rolling week ending today (`excuses.per-week`).
    public var excusesLeft: Int
    /// The day the next excuse comes back; absent when none was spent this week.
    public var excuseBackOn: String?

    public init(_ status: TodayStatus) {
        day = status.day.description
        excusesLeft = status.excuses.left
        excuseBackOn = status.excuses.backOn?.description
        habits = status.habits.map {
            let entry = status.entries[$0.habit.id]
            let fields = $0.habit.schedule.fields
            return Item(
                name: $0.habit.name, kind: $0.habit.kind.rawValue, state: $0.state.rawValue,
                stateSentence: $0.state.sentence, currentStreak: $0.timeline.currentStreak,
                longestStreak: $0.timeline.longestStreak.length,
                daysUntilBreak: $0.timeline.daysUntilBreak, score: rounded($0.timeline.score),
                source: entry?.source.rawValue, value: entry?.value, schedule: $0.habit.schedule.summary,
                every: fields.every, times: fields.times, per: fields.per, within: fields.within,
                period: $0.timeline.period.map(PeriodJSON.init))
        }
    }
}
