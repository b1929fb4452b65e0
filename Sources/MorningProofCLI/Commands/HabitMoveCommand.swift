import ArgumentParser
import Foundation
import MorningProofService

extension HabitCommand {
    /// `morningproof habit move NAME --to N`: the order status and lists show habits in.
    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move a habit to another place in the order status and lists show.",
            discussion: "New habits come last; `habit list` shows the order.")

        @Argument(help: "The habit (a unique prefix will do).")
        var name: String

        @Option(help: "Its new place among the active habits: 1 is first.")
        var to: Int

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let habits = try await session.habits.move(named: name, to: to)
            if session.json { return try Console.json(habits.map { HabitJSON($0) }) }
            for (index, habit) in habits.enumerated() { Console.out("\(index + 1). \(habit.shownName)") }
        }
    }
}
