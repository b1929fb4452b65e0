import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof undo NAME`: clear a day's entry.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Clear a habit's entry for today (or --date), done or skipped, and a check-in's answer.")

    @OptionGroup var target: EntryTarget
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try await global.session()
        // `undo checkin` names the check-in habit when no habit is called that.
        let habit = try await session.database.findHabit(named: try session.checkins.habitName(for: target.name))
        // Clears a check-in answer of the day too (a no has no entry).
        let change = try await session.entries.undo(habit: habit, day: target.date, now: session.now)
        let what = session.named(change.day)
        switch change.kind {
        case .cleared(let removed?, _):
            try session.report(
                "undone", message: "\(habit.shownName): cleared \(what) (was \(removed.status.rawValue)).", change)
        case .cleared(nil, let answer?):
            try session.report(
                "undone",
                message: "\(habit.shownName): cleared \(what)'s check-in answer (was \(answer.yes ? "yes" : "no")).",
                change)
        default:
            try session.report("nothing to undo", message: "\(habit.shownName): nothing recorded \(what).", change)
        }
    }
}
