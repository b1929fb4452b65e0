import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof status`: today at a glance.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Every active habit for today: done, skipped, pending, travel day or not due, with its streak.",
        discussion: """
            "days until break" is how many more days the habit can stay undone before its current \
            streak ends; 0 means it must be done today.
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try await global.session()
        let status = try await session.reports.status(now: session.now)
        let all = status.habits
        if session.json { return try Console.json(StatusJSON(status)) }
        Console.out("\(status.day) (\(status.zone))")
        if all.isEmpty { return Console.out("No habits yet. Add one: morningproof habit add \"Make bed\"") }
        // The name column fits the terminal beside the rest of a row (about 52 columns at most);
        // longer names end in "…".
        let column = min(Self.nameColumnMax, max(10, Console.terminalWidth() - 52))
        let names = all.map { UserText.truncated($0.habit.shownName, toWidth: column) }
        let width = names.map(UserText.displayWidth).max() ?? 0
        for (progress, shown) in zip(all, names) {
            let timeline = progress.timeline
            let name = UserText.padded(shown, toWidth: width)
            let streak = timeline.currentStreak
            var line =
                "\(symbol(progress.state)) \(name)  \(progress.state.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))"
            line += "  streak \(streak) \(streak == 1 ? "day" : "days")"
            if let sentence = progress.state.sentence {
                line += "; \(sentence)"
            } else if streak > 0 && progress.state != .done {
                let left = timeline.daysUntilBreak
                line += left == 0 ? ", do it today to keep it" : ", \(left) \(left == 1 ? "day" : "days") until break"
            }
            Console.outStyled(line)
        }
        Console.out(Self.summary(status))
    }

    /// The last line: "2 of 3 settled today (1 skipped); 1 pending. 1 excuse left this week." "All
    /// done" only when every habit is done or not due: a skipped or travel habit is not done.
    static func summary(_ status: TodayStatus) -> String {
        let settled = status.settledCount, all = status.habits.count
        let excused = [(TodayState.skipped, "skipped"), (.travel, "on a travel day")]
            .map { (status.count($0.0), $0.1) }.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        var line = "\(settled) of \(all) settled today"
        if !excused.isEmpty { line += " (\(excused.joined(separator: ", ")))" }
        if status.allDone { return line + ". All done." }
        line += settled == all ? "." : "; \(all - settled) pending."
        return line + " \(status.excuses.sentence)."
    }

    /// The widest the name column gets, however wide the terminal.
    static let nameColumnMax = 40

    private func symbol(_ state: TodayState) -> String {
        switch state {
        case .done: Console.styled("✓", "32")
        case .skipped: Console.styled("–", "33")
        case .travel: Console.styled("~", "36")
        case .notDue: Console.styled("·", "36")
        case .pending: Console.styled("○", "0")
        }
    }
}
