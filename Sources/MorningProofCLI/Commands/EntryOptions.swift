import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofStore

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
    func resolve(in session: Session) throws -> (Habit, LocalDay) {
        let habit = try session.database.findHabit(named: name)
        let day = try session.day(date)
        if day > session.today {
            throw MorningProofError.usage("\(day) is in the future (today is \(session.today))")
        }
        if day < habit.createdDay {
            throw MorningProofError.usage(
                "\"\(habit.name)\" did not exist yet on \(day) (it was added on \(habit.createdDay))")
        }
        return (habit, day)
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
    /// Prints the outcome of an entry command with the habit's streak after it.
    func report(_ result: String, message: String, habit: Habit, day: LocalDay) throws {
        let progress = try database.progress(of: habit, today: today)
        let timeline = progress.timeline
        if json {
            return try Console.json(
                EntryResultJSON(
                    habit: habit.name, day: day.description, result: result,
                    state: timeline.status(on: day)?.state ?? "open", currentStreak: timeline.currentStreak,
                    longestStreak: timeline.longestStreak.length, daysUntilBreak: timeline.daysUntilBreak))
        }
        let streak = timeline.currentStreak
        Console.out("\(message) Current streak: \(streak) \(streak == 1 ? "day" : "days").")
    }
}
