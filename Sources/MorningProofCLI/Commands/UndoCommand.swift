import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStore

/// `morningproof undo NAME`: clear a day's entry.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Clear a habit's entry for today (or --date), done or skipped, and a check-in's answer.")

    @OptionGroup var target: EntryTarget
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try global.session()
        var target = target
        target.name = try session.checkins.habitName(for: target.name)
        let (habit, day) = try target.resolve(in: session)
        // Clears a check-in answer of the day too (a no has no entry).
        let cleared = try session.database.clearDay(habitID: habit.id, day: day)
        let what = day == session.today ? "today" : day.description
        if let removed = cleared.entry {
            try session.report(
                "undone", message: "\(habit.shownName): cleared \(what) (was \(removed.status.rawValue)).",
                habit: habit,
                day: day)
        } else if let answer = cleared.answer {
            try session.report(
                "undone",
                message: "\(habit.shownName): cleared \(what)'s check-in answer (was \(answer.yes ? "yes" : "no")).",
                habit: habit, day: day)
        } else {
            try session.report(
                "nothing to undo", message: "\(habit.shownName): nothing recorded \(what).", habit: habit, day: day)
        }
    }
}
