import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Habits as a person manages them: add, edit, archive, remove, list, show.
public struct HabitService: Sendable {
    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// Adds a habit named `name` with `details`, created today (the day `now` falls on), its first day
    /// `since` when given (`HabitFirstDay`: an earlier day, never for a photo habit).
    public func add(named name: String, _ details: HabitDetails, since: String? = nil, now: Date) async throws -> Habit
    {
        let today = clock.day(at: now)
        var habit = try details.newHabit(named: name, createdDay: today, at: now)
        habit.createdDay = try HabitFirstDay.firstDay(since, of: habit, today: today, clock: clock)
        return try await database.addHabit(habit)
    }

    /// Applies `details` (and a new name) to the habit `name` names, as `edit(_:now:)` does.
    public func edit(named name: String, rename: String? = nil, _ details: HabitDetails, now: Date) async throws
        -> EditedHabit
    {
        try await edit(try await database.findHabit(named: name), rename: rename, details, now: now)
    }

    /// Applies `details` (and a new name, and an archived state) to `habit`, in one save: the one way
    /// a habit is edited, so that every edit that makes a habit required judges the excuse budget as of
    /// the day `now` falls on. When `habit` becomes a photo habit, its days before today keep their
    /// history as it was, but a done of today or later that no photo proved goes back to pending
    /// (issue 39): the days reopened come back with the habit.
    public func edit(
        _ habit: Habit, rename: String? = nil, archived: Bool? = nil, _ details: HabitDetails, now: Date
    ) async throws -> EditedHabit {
        let today = clock.day(at: now)
        var edited = try details.applied(to: habit, rename: rename)
        if let archived { edited.archived = archived }
        // Made required, its skips of the week spend excuses: judged and saved in one transaction, so
        // that edits and skips at once cannot both spend the last excuse (issue 39).
        try await database.updateHabit(edited, today: today)
        guard habit.kind != .photo, edited.kind == .photo else { return EditedHabit(habit: edited, reopened: []) }
        var reopened: [LocalDay] = []
        for entry in try await database.entries(habitID: edited.id)
        where entry.day >= today && entry.status == .done && entry.source != .photo {
            try await database.clearDay(habitID: edited.id, day: entry.day)
            reopened.append(entry.day)
        }
        return EditedHabit(habit: edited, reopened: reopened)
    }

    /// How many days of `habit` are done without a photo (by hand, or by an import). A habit that
    /// becomes a photo habit keeps them as they were, as an import keeps its history: only the days
    /// from the change on need a photo (issue 39).
    public func daysDoneWithoutPhoto(_ habit: Habit) async throws -> Int {
        try await database.entries(habitID: habit.id).filter { $0.status == .done && $0.source != .photo }.count
    }

    /// Archives the habit (history kept), or brings it back.
    public func archive(named name: String, archived: Bool = true, now: Date) async throws -> Habit {
        try await edit(try await database.findHabit(named: name), archived: archived, HabitDetails(), now: now).habit
    }

    /// Deletes the habit and its entries, only when `confirmed`; otherwise a usage error says what
    /// would be lost and how to keep it. Returns the habit and the number of entries deleted.
    public func remove(named name: String, confirmed: Bool) async throws -> (habit: Habit, entries: Int) {
        let habit = try await database.findHabit(named: name)
        guard confirmed else {
            let count = try await database.entries(habitID: habit.id).count
            throw MorningProofError.usage(
                "removing \"\(habit.name)\" would delete it and its \(count) \(count == 1 ? "entry" : "entries")\(hint: .confirmRemoval(habit: habit.name))"
            )
        }
        return await (habit, try remove(habit))
    }

    /// Deletes `habit` and its entries (the caller has the person's confirmation); returns how many
    /// entries went with it.
    public func remove(_ habit: Habit) async throws -> Int {
        try await database.removeHabit(id: habit.id)
    }

    /// The habit `name` names with its progress as of the day `now` falls on.
    public func show(named name: String, now: Date) async throws -> HabitProgress {
        try await show(try await database.findHabit(named: name), now: now)
    }

    /// `habit` with its progress as of the day `now` falls on.
    public func show(_ habit: Habit, now: Date) async throws -> HabitProgress {
        try await database.progress(of: habit, today: clock.day(at: now), need: .summary)
    }

    /// A metric habit's value on the day `now` falls on, by the daily-total rules, in words
    /// (`6,500 steps`); nil for another kind, or a day without data.
    public func metricToday(_ habit: Habit, now: Date) async throws -> (value: Double, text: String)? {
        guard habit.kind == .metric, let goal = habit.goal, let metric = HealthMetric(rawValue: goal.metric),
            let value = try await database.metricValue(
                metric: goal.metric, day: clock.day(at: now), activity: goal.activity)
        else { return nil }
        return (value, GoalTarget.format(value, for: metric))
    }

    /// The habit `id` of the account; not found for none, or another account's.
    public func habit(id: Int64) async throws -> Habit {
        guard let habit = try await database.habit(id: id) else {
            throw StoreError(.notFound, value: String(id), "no habit with id \(id)")
        }
        return habit
    }
}
