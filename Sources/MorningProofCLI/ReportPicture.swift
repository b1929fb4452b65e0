import ArgumentParser
import Foundation
import HabitCharts
import MorningProofCore
import MorningProofService

/// `report NAME --png FILE` / `--svg FILE`: one habit's heatmap and score curve as a picture.
struct ReportPicture: ParsableArguments {
    @Option(help: ArgumentHelp("Draw one habit's heatmap and score curve as a PNG picture in this file.", valueName: "file"))
    var png: String?

    @Option(help: ArgumentHelp("The same picture as SVG.", valueName: "file"))
    var svg: String?

    @Option(
        help: ArgumentHelp(
            "light or dark: the picture's colours (default: light; an SVG without it follows the reader's setting).",
            valueName: "theme"))
    var theme: String?

    var isAsked: Bool { png != nil || svg != nil }

    func check(names: [String]) throws {
        if let theme, ChartTheme(rawValue: theme) == nil {
            throw MorningProofError.usage("--theme takes light or dark, not \"\(theme)\"")
        }
        if theme != nil && !isAsked { throw MorningProofError.usage("--theme goes with --png or --svg") }
        if isAsked && names.count != 1 {
            throw MorningProofError.usage(
                "--png and --svg draw one habit: name it, as in morningproof report meditate --png meditate.png")
        }
    }

    /// Draws the habit named `name` and writes the files asked for.
    func draw(_ name: String, weeks: Int, through last: String?, session: Session) async throws {
        let habit = try await session.database.findHabit(named: name)
        let chart = try await ChartService(database: session.database, clock: session.clock)
            .chart(of: habit, weeks: weeks, through: try last.map { try session.day($0) }, now: session.now)
        let theme = self.theme.flatMap(ChartTheme.init(rawValue:))
        var written: [String] = []
        if let png {
            try OutputFile.write(try chart.png(theme: theme ?? .light), to: png)
            written.append(png)
        }
        if let svg {
            try OutputFile.write(Data(chart.svg(theme: theme).utf8), to: svg)
            written.append(svg)
        }
        Console.out(
            "Drew \(UserText.visible(habit.name)) (\(weeks) week\(weeks == 1 ? "" : "s")) in \(written.joined(separator: " and ")).")
    }
}
