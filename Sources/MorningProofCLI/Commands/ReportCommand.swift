import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofStore

/// `morningproof report`: streaks, completion, score and a calendar heatmap per habit.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Streaks, completion rates, score and history for each habit.",
        discussion: """
            Completion rates count the days that were due in the last 7, 30 and 365 days (skipped, \
            travel and still-open days are left out). The score is Loop Habit Tracker's habit strength, \
            0 to 100%. The heatmap has weeks as columns and weekdays as rows: █ done, ▒ covered by the \
            schedule, - skipped or travel, · missed, blank open or before the habit existed.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, csv
    }

    @Argument(help: "Habits to report on (default: every active habit).")
    var names: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("First day of the history (YYYY-MM-DD, yesterday, -N).", valueName: "day"))
    var from: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Last day of the history (default today).", valueName: "day"))
    var to: String?

    @Option(help: "Weeks of history in the heatmap and the days list when --from is not given.")
    var weeks: Int = 26

    @Option(help: "text, json or csv.")
    var format: Format?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validating {
            guard (1...520).contains(weeks) else {
                throw MorningProofError.usage("--weeks takes 1 to 520, not \(weeks)")
            }
        }
    }

    func run() async throws {
        let session = try global.session()
        let habits =
            try names.isEmpty ? session.database.habits() : names.map { try session.database.findHabit(named: $0) }
        let last = try session.day(to)
        let first =
            try from.map { try session.day($0) }
            ?? last.startOfWeek(weekStart: session.database.weekStart())
            .adding(days: -7 * (weeks - 1))
        guard first <= last else { throw MorningProofError.usage("--from \(first) is after --to \(last)") }
        let unlocks = try session.database.gateUnlocks(from: first, through: last)
        let reports = try session.database.progress(of: habits, today: session.today).map {
            HabitReport($0, from: first, to: last)
        }
        switch format ?? (session.json ? .json : .text) {
        case .json:
            struct ReportJSON: Encodable {
                var habits: [HabitReport]
                var gateUnlocks: [GateUnlockJSON]
            }
            try Console.json(ReportJSON(habits: reports, gateUnlocks: unlocks.map(GateUnlockJSON.init)))
        case .csv: Console.out(HabitReport.csv(reports))
        case .text:
            let weekStart = try session.database.weekStart()
            for (index, report) in reports.enumerated() {
                if index > 0 { Console.out("") }
                Console.out(report.text(weekStart: weekStart, from: first, to: last, width: Console.terminalWidth()))
            }
            if reports.isEmpty { Console.out("No habits yet. Add one: morningproof habit add \"Make bed\"") }
            if let line = GateUnlockJSON.textLine(unlocks) { Console.out("\n" + line) }
        }
    }
}
