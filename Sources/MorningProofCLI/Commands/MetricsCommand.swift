import ArgumentParser
import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract

/// `morningproof metrics ...`: import metrics files and show daily totals.
struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Import health metrics files and show daily totals.",
        discussion: """
            Files are recognised by content: Apple Health export.xml or export.zip (any name), Health \
            Auto Export JSON, CSV (date,metric,value[,unit][,source] or start,end,metric,value[,unit][,source]) \
            and JSON Lines. Metrics: steps, sleep, workouts, activeEnergy, distance, exerciseMinutes, \
            mindfulMinutes.
            Daily totals: a sample counts for the day of its start; per day the largest per-source sum \
            wins (or the first of config metrics.source-priority with data); sleep counts for the day \
            it ends, as the union of asleep intervals; reading a file again never counts twice.
            Examples:
              morningproof metrics import ~/Downloads/export.zip
              morningproof metrics show --days 7
              morningproof metrics show --date 2026-03-08 --json
            """,
        subcommands: [Import.self, Show.self],
        defaultSubcommand: Show.self
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read metrics files into the database.",
            discussion: """
                Prints records read, days touched, duplicates skipped and warnings. A malformed record \
                or line is a warning (with its line or byte offset) and the rest is read. Exit 65 when a \
                file is not a metrics file, 66 when it is missing; then nothing is read.
                Then the goals of metric habits are judged for the days the files changed, as `check` \
                judges them, and the days completed are listed; the `goal.met` of today or yesterday \
                is delivered by the next `check` or `watch`.
                Example: morningproof metrics import export.zip steps.csv
                """)

        @Argument(help: "Metrics files (export.xml, export.zip, JSON, CSV, JSON Lines).")
        var files: [String]

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating {
                if files.isEmpty { throw MorningProofError.usage("name at least one file to import") }
            }
        }

        func run() async throws {
            let paths = files.map(SourceCommand.absolute)
            // Every file is checked before any is read: a bad argument changes nothing.
            for (given, path) in zip(files, paths) { try MetricImporter.checkImportable(path, shownAs: given) }
            let session = try await global.session()
            var importer = MetricImporter(database: session.database, clock: session.clock)
            let bar = ProgressBar.forStandardError()
            if let bar {
                importer.progress = { @Sendable path, done, total in bar.show(path, done, total) }
            }
            var reports: [FileReport] = []
            for path in paths {
                let report = try await importer.importFile(path)
                bar?.clear()
                reports.append(report)
                for warning in report.warnings { Console.error("morningproof: warning: \(warning)") }
                if report.warningCount > report.warnings.count {
                    Console.error("morningproof: warning: \(path): \(report.warningCount - report.warnings.count) more")
                }
            }
            let judged = try await GoalJudge(store: session.database, clock: session.clock).judge(
                at: session.now, realTime: Date(), delivery: .queued)
            try printSummary(reports, completed: judged.completed, session: session)
        }

        struct ImportJSON: Encodable {
            struct File: Encodable {
                var path: String
                var format: String
                var recordsRead: Int
                var duplicatesSkipped: Int
                var daysTouched: Int
                var warnings: [String]
                var complete: Bool
            }
            var files: [File]
            var recordsRead: Int
            var duplicatesSkipped: Int
            var daysTouched: [String]
            var warnings: Int
            var completed: [Completed]

            /// A goal the import completed: `{habit, day, value, target}`, as the server answers.
            struct Completed: Encodable {
                var habit: String
                var day: String
                var value: Double
                var target: Double
            }
        }

        private func printSummary(_ reports: [FileReport], completed: [CompletedGoal], session: Session) throws {
            let days = reports.reduce(into: Set<LocalDay>()) { $0.formUnion($1.daysTouched) }.sorted()
            let records = reports.reduce(0) { $0 + $1.recordsRead }
            let duplicates = reports.reduce(0) { $0 + $1.duplicatesSkipped }
            let warnings = reports.reduce(0) { $0 + $1.warningCount }
            if session.json {
                return try Console.json(
                    ImportJSON(
                        files: reports.map {
                            .init(
                                path: $0.path, format: $0.format.rawValue, recordsRead: $0.recordsRead,
                                duplicatesSkipped: $0.duplicatesSkipped, daysTouched: $0.daysTouched.count,
                                warnings: $0.warnings.map(\.description), complete: $0.complete)
                        }, recordsRead: records, duplicatesSkipped: duplicates, daysTouched: days.map(\.description),
                        warnings: warnings,
                        completed: completed.map {
                            .init(habit: $0.habit, day: $0.day.description, value: $0.value, target: $0.target)
                        }))
            }
            for report in reports where reports.count > 1 {
                Console.out(
                    "\(report.path): \(report.format.displayName), \(count(report.recordsRead, "record")), \(count(report.daysTouched.count, "day")) touched"
                )
            }
            var line = "Read \(count(records, "record")) from \(count(reports.count, "file")): "
            line += "\(count(days.count, "day")) touched"
            if let first = days.first, let last = days.last {
                line += first == last ? " (\(first))" : " (\(first) to \(last))"
            }
            line += ", \(count(duplicates, "duplicate")) skipped, \(count(warnings, "warning"))."
            Console.out(line)
            if reports.contains(where: { !$0.complete }) {
                Console.out("Some files end inside a record (still being written?): read again when they are complete.")
            }
            // One line per habit: a year of history imported at once completes hundreds of days.
            var byHabit: [(habit: String, days: [LocalDay])] = []
            for goal in completed {
                if let last = byHabit.indices.last, byHabit[last].habit == goal.habit {
                    byHabit[last].days.append(goal.day)
                } else {
                    byHabit.append((goal.habit, [goal.day]))
                }
            }
            for (habit, days) in byHabit {
                let when =
                    days.count == 1
                    ? "on \(days[0])" : "on \(count(days.count, "day")) from \(days.first!) to \(days.last!)"
                Console.out("Completed \(habit) \(when) (goal met).")
            }
        }

        private func count(_ n: Int, _ noun: String) -> String {
            "\(ProgressBar.grouped(n)) \(noun)\(n == 1 ? "" : "s")"
        }
    }
}
