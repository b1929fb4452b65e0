import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofStore

/// `morningproof skip NAME`: mark a day skipped, which bridges a streak without adding to it.
struct SkipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Skip a habit for today (or --date): the streak runs through the day without growing.")

    @OptionGroup var target: EntryTarget
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try global.session()
        let (habit, day) = try target.resolve(in: session)
        let outcome = try session.database.record(
            Entry(
                habitID: habit.id, day: day, status: .skipped, source: .manual, recordedAt: session.now,
                zone: session.clock.zoneIdentifier))
        let what = day == session.today ? "today" : day.description
        let result = outcome == .unchanged ? "already skipped" : "skipped"
        try session.report(result, message: "\(habit.shownName): \(result) \(what).", habit: habit, day: day)
    }
}
