import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Every active habit as of today: the store's `HabitsToday` of the day the account's clock says,
/// with that day and the zone it is counted in.
public struct TodayStatus: Sendable {
    public let day: LocalDay
    /// The IANA zone the day is counted in.
    public let zone: String
    /// The habits and their entries of `day`, as the store read them at once.
    public let today: HabitsToday
    /// The excuses left this week (skips of required habits, empty travel days and unlocks spend them).
    public let excuses: ExcuseStanding

    /// Each active habit with its streaks, in the order they were created.
    public var habits: [HabitProgress] { today.habits }
    /// Today's entries of those habits, by habit id: what made a habit done or skipped (its source and value).
    public var entries: [Int64: Entry] { today.entries }
    /// How many habits are settled today: done, skipped or not due (`GateDecision.isSettled`).
    public var settledCount: Int { habits.count(where: { GateDecision.isSettled($0.state) }) }
    /// How many habits are in `state` today.
    public func count(_ state: TodayState) -> Int { habits.count(where: { $0.state == state }) }
    /// True only when every habit is done or not due: a skipped or travel habit is not done.
    public var allDone: Bool { habits.allSatisfy { $0.state == .done || $0.state == .notDue } }
}

/// One habit's figures over its whole history, and its days within a report's range.
public struct HabitSummary: Sendable {
    public let habit: Habit
    public let currentStreak: Int
    public let longestStreak: Int
    /// The first and last covered day of the longest streak; nil when there was none.
    public let longestStreakStart: LocalDay?
    public let longestStreakEnd: LocalDay?
    /// Share of the due days done in the last 7, 30 and 365 days; nil when none was due.
    public let completionRate7: Double?
    public let completionRate30: Double?
    public let completionRate365: Double?
    /// Loop Habit Tracker's habit strength, 0 to 1.
    public let score: Double
    public let totalDone: Int
    public let daysUntilBreak: Int
    /// The judged days of the range that lie within the habit's history: the heatmap's cells.
    public let days: [DayStatus]
    /// The score (0 to 1) at the end of each of those days: the score curve's points.
    public let dayScores: [LocalDay: Double]

    public init(_ progress: HabitProgress, range: ReportRange) {
        let timeline = progress.timeline
        let longest = timeline.longestStreak
        habit = progress.habit
        currentStreak = timeline.currentStreak
        longestStreak = longest.length
        longestStreakStart = longest.start
        longestStreakEnd = longest.end
        completionRate7 = timeline.completionRate(lastDays: 7)
        completionRate30 = timeline.completionRate(lastDays: 30)
        completionRate365 = timeline.completionRate(lastDays: 365)
        score = timeline.score
        totalDone = timeline.totalDone
        daysUntilBreak = timeline.daysUntilBreak
        days = range.first.through(range.last).compactMap { timeline.status(on: $0) }
        dayScores = timeline.scoresByDay(in: range.first...range.last)
    }
}

/// Streaks, completion, score and history of habits over a range of days, with the gate unlocks in it.
public struct Report: Sendable {
    public let range: ReportRange
    /// The first day of a calendar week (1 Monday ... 7 Sunday), for laying out the heatmap.
    public let weekStart: Int
    public let habits: [HabitSummary]
    public let gateUnlocks: [GateUnlock]
}

/// Today at a glance, and reports over a range of days.
public struct ReportService: Sendable {
    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// Every active habit's state and streaks on the day `now` falls on.
    public func status(now: Date) async throws -> TodayStatus {
        let today = clock.day(at: now)
        return TodayStatus(
            day: today, zone: clock.zoneIdentifier, today: try await database.habitsToday(today),
            excuses: try await database.excuseBudget().standing(on: today))
    }

    /// A report on the habits named (every active habit when none is), over the range `from`, `to`
    /// and `weeks` give (see `ReportRange`).
    public func report(habitsNamed names: [String] = [], from: String? = nil, to: String? = nil, weeks: Int, now: Date)
        async throws -> Report
    {
        var habits = names.isEmpty ? try await database.habits() : []
        for name in names { habits.append(try await database.findHabit(named: name)) }
        return try await report(habits: habits, from: from, to: to, weeks: weeks, now: now)
    }

    /// The report on the habit `id` (not found for none, or another account's), over `weeks` (checked
    /// once the habit is found) or `from` and `to`.
    public func report(habitID id: Int64, from: String? = nil, to: String? = nil, weeks: Int, now: Date) async throws
        -> Report
    {
        let habit = try await HabitService(database: database, clock: clock).habit(id: id)
        try ReportRange.checkWeeks(weeks)
        return try await report(habits: [habit], from: from, to: to, weeks: weeks, now: now)
    }

    /// The same report on `habits`.
    public func report(habits: [Habit], from: String? = nil, to: String? = nil, weeks: Int, now: Date) async throws
        -> Report
    {
        let today = clock.day(at: now)
        let weekStart = try await database.weekStart()
        let range = try ReportRange(from: from, to: to, weeks: weeks, today: today, weekStart: weekStart)
        let unlocks = try await database.gateUnlocks(from: range.first, through: range.last)
        return Report(
            range: range, weekStart: weekStart,
            // Every day since the first: each day's score on the curve carries on from all the days
            // before it, and a habit's stored state keeps only its last score.
            habits: try await database.progress(of: habits, today: today, need: .all).map {
                HabitSummary($0, range: range)
            },
            gateUnlocks: unlocks)
    }
}
