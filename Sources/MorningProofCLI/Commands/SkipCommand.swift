import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof skip NAME`: mark a day skipped, which bridges a streak without adding to it.
struct SkipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Skip a habit for today (or --date): the streak runs through the day without growing.")

    @OptionGroup var target: EntryTarget
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try await global.session()
        let habit = try await target.habit(in: session)
        let change = try await session.entries.record(.skipped, habit: habit, day: target.date, now: session.now)
        let result = change.kind == .recorded(.unchanged) ? "already skipped" : "skipped"
        try session.report(result, message: "\(habit.shownName): \(result) \(session.named(change.day)).", change)
    }
}
