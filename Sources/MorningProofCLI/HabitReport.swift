import Foundation
import MorningProofCore
import MorningProofService

extension HabitReport {
    static func csv(_ reports: [HabitReport]) -> String {
        var lines = [
            "habit,currentStreak,longestStreak,longestStreakStart,longestStreakEnd,completionRate7,completionRate30,completionRate365,score,totalDone"
        ]
        for r in reports {
            let fields: [String] = [
                quoted(r.name), "\(r.currentStreak)", "\(r.longestStreak)", r.longestStreakStart ?? "",
                r.longestStreakEnd ?? "",
                r.completionRate7.map { "\($0)" } ?? "", r.completionRate30.map { "\($0)" } ?? "",
                r.completionRate365.map { "\($0)" } ?? "", "\(r.score)", "\(r.totalDone)",
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    private static func quoted(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    /// The text block: a summary, then a heatmap with weeks as columns and weekdays as rows.
    func text(weekStart: Int, from: LocalDay, to: LocalDay, width: Int) -> String {
        func percent(_ rate: Double?) -> String { rate.map { "\(Int(($0 * 100).rounded()))%" } ?? "–" }
        var lines = ["\(UserText.visible(name)) (\(kind), \(schedule))"]
        var longest = "longest \(longestStreak)"
        if let start = longestStreakStart, let end = longestStreakEnd { longest += " (\(start) to \(end))" }
        lines.append("  current streak \(currentStreak), \(longest)")
        lines.append(
            "  completion 7d \(percent(completionRate7)), 30d \(percent(completionRate30)), 365d \(percent(completionRate365)); "
                + "score \(Int((score * 100).rounded()))%; done \(totalDone) \(totalDone == 1 ? "time" : "times")")
        let states = Dictionary(uniqueKeysWithValues: days.map { ($0.day, $0.state) })
        // Fit the columns to the terminal: 5 characters of labels, 2 per week.
        let fitting = max(1, (width - 6) / 2)
        var firstWeek = from.startOfWeek(weekStart: weekStart)
        let lastWeek = to.startOfWeek(weekStart: weekStart)
        let weekCount = firstWeek.days(to: lastWeek) / 7 + 1
        if weekCount > fitting { firstWeek = lastWeek.adding(days: -7 * (fitting - 1)) }
        let columns = firstWeek.days(to: lastWeek) / 7 + 1
        let labels = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        for row in 0..<7 {
            var line = "  " + labels[(weekStart - 1 + row) % 7] + " "
            for column in 0..<columns {
                let day = firstWeek.adding(days: column * 7 + row)
                line += (day < from || day > to ? " " : Self.cell(states[day.description])) + " "
            }
            lines.append(line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
        }
        return lines.joined(separator: "\n")
    }

    /// What the heatmap's marks mean, printed under the grids.
    static let legend =
        "  █ done  ▒ covered by the schedule  - skipped or travel  · missed  blank: open or before the habit"

    private static func cell(_ state: String?) -> String {
        switch state {
        case "done": "█"
        case "covered": "▒"
        case "skipped", "travel": "-"
        case "missed": "·"
        default: " "
        }
    }
}

extension GateUnlockJSON {
    /// "Gate unlocks: 2026-03-01 (reason); ...", or nil when there were none.
    static func textLine(_ unlocks: [GateUnlock]) -> String? {
        guard !unlocks.isEmpty else { return nil }
        return "Gate unlocks (\(unlocks.count)): "
            + unlocks.map { "\($0.day) (\(UserText.visible($0.reason)))" }.joined(separator: "; ")
    }
}
