import Foundation
import MorningProofCore

/// `ImportMerge`'s rule applied one habit at a time, as an `ImportStream` hands them over: each habit
/// is planned against the habits stored when the import began, then stored and let go, so that the
/// plan keeps counts and never the whole file's entries.
public struct ImportPlanner: Sendable {
    /// The habits stored when the import began.
    public let stored: [Habit]
    public let merge: Bool
    /// Names already stored that the import holds, refused when `merge` is false.
    private var taken: [String] = []

    public init(stored: [Habit], merge: Bool) {
        self.stored = stored
        self.merge = merge
    }

    /// The stored habit of the same name (in any case).
    func match(_ name: String) -> Habit? {
        stored.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The stored habit `habit` merges into, whose entries `item` needs; nil when it is created (or refused).
    public func target(of habit: PortableHabit) -> Habit? {
        merge ? match(habit.name) : nil
    }

    /// What happens to `habit`, given the entries of its `target` by day; nil when its name is taken
    /// and `merge` is false (then `checkNamesFree` refuses the whole import).
    public mutating func item(_ habit: PortableHabit, targetEntries: [LocalDay: Entry]) -> ImportPlan.Item? {
        guard let existing = match(habit.name) else {
            return ImportPlan.Item(habit: habit, alreadyHere: 0, conflicts: [], differences: [])
        }
        guard merge else {
            taken.append(existing.name)
            return nil
        }
        return ImportMerge.merged(habit, into: ImportMerge.Stored(habit: existing, entries: targetEntries))
    }

    /// A data error naming every taken name when `merge` is false (the caller's transaction then
    /// stores nothing).
    public func checkNamesFree() throws {
        guard !taken.isEmpty else { return }
        throw MorningProofError(
            .dataError,
            "\(taken.map { "\"\($0)\"" }.joined(separator: ", ")) already exist\(taken.count == 1 ? "s" : "") here; nothing was imported\(hint: .mergeInstead(count: taken.count))"
        )
    }
}

extension ImportStream {
    /// Plans every habit of the stream against `stored` and hands each item to `store` (nil for a dry
    /// run) before reading the next: the plan that comes back holds counts, not entries. `entries`
    /// reads a stored habit's entries by day, for the habits merged into. Run it in one transaction:
    /// it throws, after storing some, when `merge` is false and a name is taken.
    public func plan(
        stored: [Habit], merge: Bool, entries: (Habit) throws -> [LocalDay: Entry],
        store: ((ImportPlan.Item) throws -> Void)?
    ) throws -> ImportPlan {
        var planner = ImportPlanner(stored: stored, merge: merge)
        var items: [ImportPlan.Item] = []
        while let habit = try next() {
            let target = planner.target(of: habit)
            guard let item = planner.item(habit, targetEntries: try target.map(entries) ?? [:]) else { continue }
            try store?(item)
            items.append(item.stored)
        }
        try planner.checkNamesFree()
        return ImportPlan(items: items, warnings: warnings)
    }
}
