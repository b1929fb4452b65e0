import Foundation
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

    /// Judges a habit's recorded days as of `today`: from its creation day (or today, for a habit
    /// created "later" by a clock change), with the travel days and week start in the settings.
    public init(
        _ habit: Habit, days: [(day: LocalDay, status: EntryStatus)], today: LocalDay, travelDays: Set<LocalDay>,
        weekStart: Int
    ) {
        self.habit = habit
        timeline = HabitTimeline(
            schedule: habit.schedule, firstDay: min(habit.createdDay, today), today: today, recorded: days,
            travelDays: travelDays, weekStart: weekStart)
    }
}

extension AppDatabase {
    /// One habit's progress as of `today`.
    public func progress(of habit: Habit, today: LocalDay) throws -> HabitProgress {
        HabitProgress(
            habit, days: try dayStatuses(habitID: habit.id)[habit.id] ?? [], today: today,
            travelDays: try travelDays(), weekStart: try weekStart())
    }

    /// Every habit's progress as of `today`, read in one pass over the entries.
    public func progress(of habits: [Habit], today: LocalDay) throws -> [HabitProgress] {
        // One habit (`report NAME`, the server's habit routes) reads its own rows, not every habit's.
        let statuses = try habits.count == 1 ? dayStatuses(habitID: habits[0].id) : dayStatuses()
        let travelDays = try travelDays()
        let weekStart = try weekStart()
        return habits.map { habit in
            HabitProgress(
                habit, days: statuses[habit.id] ?? [], today: today, travelDays: travelDays, weekStart: weekStart)
        }
    }
}
