import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof done NAME`: mark a day done.
struct DoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark a habit done for today (or --date).",
        discussion: "Doing a done day again is harmless: it says \"already done\" and stores nothing twice.")

    @OptionGroup var target: EntryTarget

    @Option(help: "A note kept with the entry.")
    var note: String?

    @Option(help: "A number kept with the entry (minutes, pages, ...).")
    var value: Double?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try await global.session()
        let habit = try await target.habit(in: session)
        let change = try await session.entries.record(
            .done, habit: habit, day: target.date, note: note, value: value, now: session.now)
        let what = session.named(change.day)
        if change.kind == .recorded(.unchanged) {
            try session.report("already done", message: "\(habit.shownName): already done \(what).", change)
        } else {
            try session.report("done", message: "\(habit.shownName): done \(what).", change)
        }
    }
}
