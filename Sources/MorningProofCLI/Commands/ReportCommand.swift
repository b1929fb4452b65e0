import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

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
            --png FILE or --svg FILE draws one habit's heatmap and score curve as a picture instead.
            Examples:
              morningproof report meditate --weeks 8
              morningproof report meditate --png meditate.png
              morningproof report meditate --svg meditate.svg --theme dark
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
    var weeks: Int = ReportRange.defaultWeeks

    @Option(help: "text, json or csv.")
    var format: Format?

    @OptionGroup var picture: ReportPicture

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validating {
            try ReportRange.checkWeeks(weeks)
            try picture.check(names: names)
        }
    }

    func run() async throws {
        let session = try await global.session()
        if picture.isAsked { return try await picture.draw(names[0], weeks: weeks, through: to, session: session) }
        let report = try await session.reports.report(
            habitsNamed: names, from: from, to: to, weeks: weeks, now: session.now)
        let reports = report.habits.map(HabitReport.init)
        switch format ?? (session.json ? .json : .text) {
        case .json: try Console.json(ReportJSON(report))
        case .csv: Console.out(HabitReport.csv(reports))
        case .text:
            let range = report.range
            for (index, habit) in reports.enumerated() {
                if index > 0 { Console.out("") }
                Console.out(
                    habit.text(
                        weekStart: report.weekStart, from: range.first, to: range.last, width: Console.terminalWidth()))
            }
            if reports.isEmpty {
                Console.out("No habits yet. Add one: morningproof habit add \"Make bed\"")
            } else {
                Console.out(HabitReport.legend)
            }
            if let line = GateUnlockJSON.textLine(report.gateUnlocks) { Console.out("\n" + line) }
        }
    }
}

extension Session {
    /// Status and report use cases on this session's database and clock.
    var reports: ReportService { ReportService(database: database, clock: clock) }
}
