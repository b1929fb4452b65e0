import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract

extension MetricsCommand {
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show daily totals: steps, sleep, workouts, energy, distance, exercise, mindful minutes.",
            discussion: """
                Shows the --days N days ending on --date (default: the last 7 days up to today; with \
                --date alone, that one day). A metric without data on a day is left out.
                JSON: {"days": [{"day": "2026-03-08", "steps": 8412, "sleepMinutes": 431, "workouts": 1, \
                "workoutMinutes": 34.2, "activeEnergyKcal": 512, "distanceKm": 6.1, "exerciseMinutes": 30, \
                "mindfulMinutes": 10}]}
                Examples:
                  morningproof metrics show
                  morningproof metrics show --date yesterday
                  morningproof metrics show --days 30 --json
                """)

        @Option(help: "The last day shown: YYYY-MM-DD, today, yesterday or -N.")
        var date: String?

        @Option(help: "How many days, ending on --date.")
        var days: Int?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating {
                if let days, days < 1 || days > MetricDaysJSON.maxDays {
                    throw MorningProofError.usage("--days must be from 1 to \(MetricDaysJSON.maxDays)")
                }
            }
        }

        /// The metrics shown, their text header and their rounding (the JSON's, the server's too).
        static let columns = MetricDaysJSON.columns

        func run() async throws {
            let session = try await global.session()
            let last = try session.day(date)
            let count = days ?? (date == nil ? 7 : 1)
            let first = last.adding(days: -(count - 1))
            let values = try await session.database.metricDays(from: first, to: last)
            let shown = first.through(last)
            if session.json {
                return try Console.json(MetricDaysJSON(values, from: first, to: last))
            }
            if values.isEmpty {
                return Console.out(
                    "No metrics from \(first) to \(last). Import some: morningproof metrics import export.zip")
            }
            let headers = ["day"] + Self.columns.map(\.header)
            var table = [headers]
            for day in shown {
                var cells = [day.description]
                for column in Self.columns {
                    guard let value = values[day]?[column.metric.rawValue] else {
                        cells.append("-")
                        continue
                    }
                    if column.metric == .sleep {
                        let minutes = Int(value.rounded())
                        cells.append("\(minutes / 60)h\(String(format: "%02d", minutes % 60))")
                    } else {
                        cells.append(Self.format(Self.rounded(value, column.decimals), column.decimals))
                    }
                }
                table.append(cells)
            }
            let widths = headers.indices.map { i in table.map { $0[i].count }.max() ?? 0 }
            for row in table {
                let padded = row.enumerated().map { i, cell in
                    i == 0
                        ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                        : String(repeating: " ", count: widths[i] - cell.count) + cell
                }
                Console.out(padded.joined(separator: "  "))
            }
        }

        static func rounded(_ value: Double, _ decimals: Int) -> Double {
            MetricDaysJSON.rounded(value, decimals)
        }

        static func format(_ value: Double, _ decimals: Int) -> String {
            decimals == 0 ? ProgressBar.grouped(Int(value)) : String(format: "%.\(decimals)f", value)
        }
    }
}
