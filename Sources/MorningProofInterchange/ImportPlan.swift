import Foundation
import MorningProofCore

/// What an import does to the habits already stored: which it creates, which it merges into, and
/// every day on which what is stored and what is imported disagree.
public struct ImportPlan: Equatable, Sendable {
    /// A day stored here that the import would change: what is here always stays.
    public struct Conflict: Equatable, Sendable {
        public var day: LocalDay
        public var here: EntryStatus
        public var hereSource: EntrySource
        public var imported: EntryStatus
    }

    /// One imported habit and what happens to it.
    public struct Item: Equatable, Sendable {
        /// The habit as imported, with only the entries to store (days already stored are left out).
        public var habit: PortableHabit
        /// The stored habit of the same name it merges into; nil when it is created.
        public var mergeInto: Habit?
        /// Days the import holds that are already stored with the same status.
        public var alreadyHere: Int
        public var conflicts: [Conflict]
        /// How the stored habit differs from the imported one (kept as stored): `schedule: daily here, ...`.
        public var differences: [String]
        /// The stored habit's first day moves back to this one, so that older imported days count.
        public var newCreatedDay: LocalDay?

        /// How many entries the import adds (counted when planned, kept once they are stored and let go).
        public var entriesAdded = 0
        /// The first and last day of the entries it adds.
        public var dayRange: ClosedRange<LocalDay>?

        /// Entries the import adds (none once stored: see `stored`).
        public var newEntries: [PortableEntry] { habit.entries }

        init(
            habit: PortableHabit, mergeInto: Habit? = nil, alreadyHere: Int, conflicts: [Conflict],
            differences: [String], newCreatedDay: LocalDay? = nil
        ) {
            self.habit = habit
            self.mergeInto = mergeInto
            self.alreadyHere = alreadyHere
            self.conflicts = conflicts
            self.differences = differences
            self.newCreatedDay = newCreatedDay
            counted()
        }

        /// Counts the entries it adds, and their days.
        mutating func counted() {
            entriesAdded = newEntries.count
            dayRange = ImportPlan.range(newEntries.map(\.day))
        }

        /// The item as the answer keeps it once its entries are stored: its counts, not its entries,
        /// so that an import holds one habit's entries at a time.
        public var stored: Item {
            var item = self
            item.habit.entries = []
            return item
        }
    }

    public var items: [Item]
    /// Rows left out of the import, with their file and line.
    public var warnings: [ImportWarning]

    public var habitsCreated: Int { items.filter { $0.mergeInto == nil }.count }
    public var habitsMerged: Int { items.filter { $0.mergeInto != nil }.count }
    public var entriesAdded: Int { items.reduce(0) { $0 + $1.entriesAdded } }
    public var conflicts: Int { items.reduce(0) { $0 + $1.conflicts.count } }
    /// The first and last day the added entries cover.
    public var dayRange: ClosedRange<LocalDay>? {
        Self.range(items.compactMap(\.dayRange).flatMap { [$0.lowerBound, $0.upperBound] })
    }

    public init(items: [Item], warnings: [ImportWarning]) {
        self.items = items
        self.warnings = warnings
    }

    static func range(_ days: [LocalDay]) -> ClosedRange<LocalDay>? {
        guard let first = days.min(), let last = days.max() else { return nil }
        return first...last
    }
    /// True when applying it would change nothing.
    public var isEmpty: Bool {
        habitsCreated == 0 && entriesAdded == 0 && !items.contains { $0.newCreatedDay != nil }
    }
}

/// The merge rule of every import: an imported habit whose name (in any case) is already stored is
/// merged into it, and on any day already stored, what is here wins: a manual entry is never replaced,
/// nor an automatic one, so an import only ever adds days. With `merge: false` such a habit is refused.
public enum ImportMerge {
    /// What is stored of one habit: the habit and its entries by day.
    public struct Stored: Sendable {
        public var habit: Habit
        public var entries: [LocalDay: Entry]

        public init(habit: Habit, entries: [LocalDay: Entry]) {
            self.habit = habit
            self.entries = entries
        }
    }

    /// Plans `batch` against the stored habits; `entries(id)` reads one stored habit's entries when needed.
    /// Throws a data error (nothing is planned) when `merge` is false and a name is already taken.
    public static func plan(
        _ batch: ImportBatch, stored: [Habit], entries: (Habit) throws -> [LocalDay: Entry], merge: Bool
    ) throws -> ImportPlan {
        var planner = ImportPlanner(stored: stored, merge: merge)
        var items: [ImportPlan.Item] = []
        for habit in batch.habits {
            let target = planner.target(of: habit)
            if let item = planner.item(habit, targetEntries: try target.map(entries) ?? [:]) { items.append(item) }
        }
        try planner.checkNamesFree()
        return ImportPlan(items: items, warnings: batch.warnings)
    }

    /// One imported habit merged into a stored one.
    public static func merged(_ imported: PortableHabit, into stored: Stored) -> ImportPlan.Item {
        var item = ImportPlan.Item(
            habit: imported, mergeInto: stored.habit, alreadyHere: 0, conflicts: [],
            differences: differences(stored.habit, imported))
        item.habit.entries = imported.entries.filter { entry in
            guard let here = stored.entries[entry.day] else { return true }
            if here.status == entry.status {
                item.alreadyHere += 1
            } else {
                item.conflicts.append(
                    .init(day: entry.day, here: here.status, hereSource: here.source, imported: entry.status))
            }
            return false
        }
        if let first = item.habit.entries.map(\.day).min(), first < stored.habit.createdDay {
            item.newCreatedDay = first
        }
        item.counted()
        return item
    }

    /// The settings a merge keeps as stored although the import says otherwise, in words.
    static func differences(_ here: Habit, _ imported: PortableHabit) -> [String] {
        var result: [String] = []
        if here.kind != imported.kind {
            result.append("kind: \(here.kind.rawValue) here, \(imported.kind.rawValue) imported")
        }
        if here.schedule != imported.schedule {
            result.append("schedule: \(here.schedule.summary) here, \(imported.schedule.summary) imported")
        }
        if here.goal != imported.goal {
            func words(_ goal: MetricGoal?) -> String { goal?.summary ?? "no goal" }
            result.append("goal: \(words(here.goal)) here, \(words(imported.goal)) imported")
        }
        return result
    }
}
