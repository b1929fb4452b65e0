import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A habit as scripts see it (`habit list/show --json`; with its id, the API's habits).
public struct HabitJSON: Encodable, Sendable {
    public var name: String
    public var kind: String
    /// The schedule in words ("3 times a week"), and as the fields a create or edit request takes.
    public var schedule: String
    public var every: Int?
    public var times: Int?
    public var per: String?
    public var within: Int?
    public var remindAt: String?
    public var required: Bool
    public var note: String?
    public var archived: Bool
    public var createdDay: String
    public var goal: GoalJSON?
    public var state: String?
    public var currentStreak: Int?
    public var longestStreak: Int?
    public var daysUntilBreak: Int?
    public var score: Double?
    /// For a target over a period (K times a week or a month, K in D days): the period holding today.
    public var period: PeriodJSON?

    public init(_ habit: Habit, progress: HabitProgress? = nil) {
        name = habit.name
        kind = habit.kind.rawValue
        schedule = habit.schedule.summary
        (every, times, per, within) = habit.schedule.fields
        remindAt = habit.remindAt.map(formatClockTime)
        required = habit.required
        note = habit.note
        archived = habit.archived
        createdDay = habit.createdDay.description
        goal = habit.goal.map(GoalJSON.init)
        if let progress {
            state = progress.state.rawValue
            currentStreak = progress.timeline.currentStreak
            longestStreak = progress.timeline.longestStreak.length
            daysUntilBreak = progress.timeline.daysUntilBreak
            score = rounded(progress.timeline.score)
            period = progress.timeline.period.map(PeriodJSON.init)
        }
    }
}

/// A period's progress as scripts see it: `{"done":2,"target":3,"start":"2026-11-23",
/// "end":"2026-11-29","words":"2 of 3 this week"}`.
public struct PeriodJSON: Encodable, Sendable, Equatable {
    public var done: Int
    public var target: Int
    public var start: String
    public var end: String
    public var words: String

    public init(_ period: PeriodProgress) {
        done = period.done
        target = period.target
        start = period.start.description
        end = period.end.description
        words = period.words
    }
}

/// Rounds a share to four decimals for output.
public func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

/// A habit's metric goal as scripts see it: the target in the metric's base unit.
public struct GoalJSON: Encodable, Sendable {
    public var metric: String
    public var comparison: String
    public var target: Double
    public var activity: String?
    public var summary: String

    public init(_ goal: MetricGoal) {
        metric = goal.metric
        comparison = goal.comparison.rawValue
        target = goal.target
        activity = goal.activity
        summary = goal.summary
    }
}
