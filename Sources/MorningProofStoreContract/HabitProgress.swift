import MorningProofCore

/// A habit with its judged history as of a day: what status, reports, the gate and reminders read.
public struct HabitProgress: Sendable {
    public let habit: Habit
    public let timeline: HabitTimeline

    public init(habit: Habit, timeline: HabitTimeline) {
        self.habit = habit
        self.timeline = timeline
    }

    /// Done, skipped, pending or not due today.
    public var state: TodayState { timeline.todayState }
}
