import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofService

extension ImportSource {
    /// `Loop Habit Tracker`, `harsh`, `MorningProof export`.
    var programName: String {
        switch self {
        case .loop: "Loop Habit Tracker"
        case .harsh: "harsh"
        case .json: "MorningProof export"
        }
    }

    var kind: String {
        switch self {
        case .loop: "loop"
        case .harsh: "harsh"
        case .json: "json"
        }
    }
}

/// An import's plan in words: a summary, then one line per habit with its conflicts.
enum ImportText {
    /// How many conflicting days each habit lists before "and N more".
    static let conflictsShown = 5

    static func lines(_ plan: ImportPlan, source: ImportSource, applied: Bool) -> [String] {
        let file = "\(source.path) (\(source.programName))"
        if plan.items.isEmpty { return ["Nothing to import from \(file): it holds no habit that could be read."] }
        var lines: [String] = []
        var summary = applied ? "Imported \(file): " : "Dry run of \(file): nothing was written. Would "
        var parts: [String] = []
        if plan.habitsCreated > 0 {
            parts.append((applied ? "created " : "create ") + count(plan.habitsCreated, "habit"))
        }
        if plan.habitsMerged > 0 {
            parts.append((applied ? "merged into " : "merge into ") + count(plan.habitsMerged, "habit"))
        }
        parts.append(
            (applied ? "added " : "add ")
                + (plan.entriesAdded == 0
                    ? "no entries" : count(plan.entriesAdded, "entry", "entries") + range(plan.dayRange)))
        summary += parts.dropLast().joined(separator: ", ") + (parts.count > 1 ? " and " : "") + parts.last! + "."
        if plan.conflicts > 0 {
            summary +=
                " \(count(plan.conflicts, "day")) conflict\(plan.conflicts == 1 ? "s" : "") with what is recorded here, which stays."
        }
        lines.append(summary)
        for item in plan.items { lines += habitLines(item) }
        if !plan.warnings.isEmpty {
            lines.append("\(count(plan.warnings.count, "warning")) on stderr: the rows they name were left out.")
        }
        if !applied {
            lines.append(
                plan.isEmpty
                    ? "Nothing to add: every day it holds is recorded here already."
                    : "Run it again with --apply to import.")
        }
        return lines
    }

    static func habitLines(_ item: ImportPlan.Item) -> [String] {
        let habit = item.habit
        var line: String
        if let target = item.mergeInto {
            line =
                "  ~ \(UserText.visible(habit.name))"
                + (target.name == habit.name ? " (merged): " : " into \"\(UserText.visible(target.name))\": ")
        } else {
            line =
                "  + \(UserText.visible(habit.name)) (\(habit.kind.rawValue), \(habit.schedule.summary)"
                + (habit.archived ? ", archived" : "") + "): "
        }
        line += count(item.entriesAdded, "entry", "entries") + range(item.dayRange)
        if item.alreadyHere > 0 { line += ", \(count(item.alreadyHere, "day")) already here" }
        if !item.conflicts.isEmpty { line += ", \(count(item.conflicts.count, "conflict"))" }
        var lines = [line]
        for difference in item.differences { lines.append("      kept as here: \(difference)") }
        for conflict in item.conflicts.prefix(conflictsShown) {
            lines.append(
                "      \(conflict.day): \(conflict.here.rawValue) here (\(conflict.hereSource.rawValue)), \(conflict.imported.rawValue) in the import: kept \(conflict.here.rawValue)"
            )
        }
        if item.conflicts.count > conflictsShown {
            lines.append("      and \(item.conflicts.count - conflictsShown) more")
        }
        if let day = item.newCreatedDay { lines.append("      its history now starts on \(day)") }
        return lines
    }

    static func range(_ range: ClosedRange<LocalDay>?) -> String {
        guard let range else { return "" }
        return range.lowerBound == range.upperBound
            ? " (\(range.lowerBound))" : " (\(range.lowerBound) to \(range.upperBound))"
    }

    static func count(_ n: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(ProgressBar.grouped(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }
}
