import Foundation
import MorningProofCore
import MorningProofStore

/// Habits as a person manages them: add, edit, archive, remove, list, show.
public struct HabitService: Sendable {
    public let database: AppDatabase
    public let clock: DayClock

    public init(database: AppDatabase, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// Adds a habit named `name` with `details`, created today (the day `now` falls on).
    public func add(named name: String, _ details: HabitDetails, now: Date) throws -> Habit {
        try database.addHabit(try details.newHabit(named: name, createdDay: clock.day(at: now), at: now))
    }

    /// Applies `details` (and a new name) to the habit `name` names.
    public func edit(named name: String, rename: String? = nil, _ details: HabitDetails) throws -> Habit {
        let habit = try details.applied(to: try database.findHabit(named: name), rename: rename)
        try database.updateHabit(habit)
        return habit
    }

    /// Archives the habit (history kept), or brings it back.
    public func archive(named name: String, archived: Bool = true) throws -> Habit {
        var habit = try database.findHabit(named: name)
        habit.archived = archived
        try database.updateHabit(habit)
        return habit
    }

    /// Deletes the habit and its entries, only when `confirmed`; otherwise a usage error says what
    /// would be lost and how to keep it. Returns the habit and the number of entries deleted.
    public func remove(named name: String, confirmed: Bool) throws -> (habit: Habit, entries: Int) {
        let habit = try database.findHabit(named: name)
        guard confirmed else {
            let count = try database.entries(habitID: habit.id).count
            throw MorningProofError.usage(
                "removing \"\(habit.name)\" would delete it and its \(count) \(count == 1 ? "entry" : "entries"); "
                    + "run again with --yes, or keep its history with: morningproof habit archive \"\(habit.name)\"")
        }
        return (habit, try database.removeHabit(id: habit.id))
    }

    /// The habit `name` names with its progress as of the day `now` falls on.
    public func show(named name: String, now: Date) throws -> HabitProgress {
        try database.progress(of: try database.findHabit(named: name), today: clock.day(at: now))
    }
}
