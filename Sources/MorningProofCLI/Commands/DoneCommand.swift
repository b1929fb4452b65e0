import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofStore

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

    func validate() throws {
        try validating {
            if let note { try UserText.validate(note, field: "--note", maxLength: UserText.noteMaxLength) }
        }
    }

    func run() async throws {
        let session = try global.session()
        let (habit, day) = try target.resolve(in: session)
        let outcome = try session.database.record(
            Entry(
                habitID: habit.id, day: day, status: .done, value: value, source: .manual, note: note,
                recordedAt: session.now, zone: session.clock.zoneIdentifier))
        let what = day == session.today ? "today" : day.description
        switch outcome {
        case .unchanged:
            try session.report(
                "already done", message: "\(habit.shownName): already done \(what).", habit: habit, day: day)
        default:
            try session.report("done", message: "\(habit.shownName): done \(what).", habit: habit, day: day)
        }
    }
}
