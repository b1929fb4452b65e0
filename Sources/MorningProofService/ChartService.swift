import Foundation
import HabitCharts
import MorningProofCore
import MorningProofStoreContract

/// A habit's history as a picture: the same chart for `report --png/--svg` and for a web page.
public struct ChartService: Sendable {
    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// The chart of the habit `id` as `chart(of:)` draws it; `weeks` is checked before the habit is looked up.
    public func chart(habitID id: Int64, weeks: Int, now: Date) async throws -> HabitChart {
        try ReportRange.checkWeeks(weeks)
        return try await chart(of: try await HabitService(database: database, clock: clock).habit(id: id), weeks: weeks, now: now)
    }

    /// The chart of `habit` as of `now`: the `weeks` calendar weeks up to `last` (default today) in
    /// the heatmap and the score curve, with its streaks, completion and score.
    public func chart(of habit: Habit, weeks: Int = 26, through last: LocalDay? = nil, now: Date) async throws -> HabitChart {
        let today = clock.day(at: now)
        let weekStart = try await database.weekStart()
        let progress = try await database.progress(of: habit, today: today)
        let timeline = progress.timeline
        let end = last ?? today
        let first = end.startOfWeek(weekStart: weekStart).adding(days: -7 * (weeks - 1))
        let scores = timeline.scoresByDay(in: first...end)
        let days = first.through(end).compactMap { day -> HabitChart.Day? in
            guard let status = timeline.status(on: day) else { return nil }
            return HabitChart.Day(day: day, state: status.state, score: scores[day] ?? 0)
        }
        return HabitChart(
            name: habit.name, summary: "\(habit.kind.rawValue), \(habit.schedule.summary)",
            currentStreak: timeline.currentStreak, longestStreak: timeline.longestStreak.length,
            completion7: timeline.completionRate(lastDays: 7), completion30: timeline.completionRate(lastDays: 30),
            completion365: timeline.completionRate(lastDays: 365), score: timeline.score, range: first...end, days: days,
            today: today,
            weekStart: weekStart)
    }
}
