import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract

/// The habit and day an entry command acts on.
struct EntryTarget: ParsableArguments {
    @Argument(help: "The habit (a unique prefix will do).")
    var name: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The day: YYYY-MM-DD, today, yesterday or -N (N days ago). Default: today.", valueName: "day"))
    var date: String?

    /// Finds the habit and checks the day: not in the future, not before the habit existed.
    /// The habit named (a unique prefix will do).
    func habit(in session: Session) async throws -> Habit {
        try await session.database.findHabit(named: name)
    }
}

/// What an entry command prints: the habit, the day, what happened and the streak after it.
struct EntryResultJSON: Encodable {
    var habit: String
    var day: String
    var result: String
    var state: String
    var currentStreak: Int
    var longestStreak: Int
    var daysUntilBreak: Int
}

extension Session {
    /// The entry use cases on this session's database and clock.
    var entries: EntryService { EntryService(database: database, clock: clock) }

    /// Prints what an entry change did: `result` for scripts, `message` and the streak for people.
    func report(_ result: String, message: String, _ change: EntryChange) throws {
        let timeline = change.progress.timeline
        if json {
            return try Console.json(
                EntryResultJSON(
                    habit: change.habit.name, day: change.day.description, result: result,
                    state: timeline.status(on: change.day)?.state ?? "open", currentStreak: timeline.currentStreak,
                    longestStreak: timeline.longestStreak.length, daysUntilBreak: timeline.daysUntilBreak))
        }
        let streak = timeline.currentStreak
        Console.out("\(message) Current streak: \(streak) \(streak == 1 ? "day" : "days").")
    }

    /// "today" or the day's date, for messages.
    func named(_ day: LocalDay) -> String { day == today ? "today" : day.description }
}

extension Session {
    /// The habit use cases on this session's database and clock.
    var habits: HabitService { HabitService(database: database, clock: clock) }
}
