import Foundation
import GRDB
import MorningProofCore

extension AppDatabase {
    /// Active habits (and archived ones when asked), in the order they were created.
    public func habits(includeArchived: Bool = false) throws -> [Habit] {
        try read { db in
            let all = HabitRecord.order(HabitRecord.Columns.id)
            return try (includeArchived ? all : all.filter(HabitRecord.Columns.archived == false)).fetchAll(db)
                .map(\.habit)
        }
    }

    public func habit(id: Int64) throws -> Habit? {
        try read { db in try HabitRecord.fetchOne(db, key: id)?.habit }
    }

    /// The habit a person means by `text`: its exact name, or a unique prefix, in any case.
    public func findHabit(named text: String, includeArchived: Bool = true) throws -> Habit {
        let all = try habits(includeArchived: includeArchived)
        if let exact = all.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) { return exact }
        let lower = text.lowercased()
        let matches = all.filter { $0.name.lowercased().hasPrefix(lower) }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let names = all.filter { !$0.archived }.map { "\"\($0.name)\"" }
            throw StoreError(
                .notFound, value: text,
                "no habit named \"\(text)\""
                    + (names.isEmpty
                        ? "; add one with: morningproof habit add NAME" : " (habits: \(names.joined(separator: ", ")))")
            )
        default:
            throw StoreError(
                .ambiguous, value: text,
                "\"\(text)\" is ambiguous: it could be \(matches.map { "\"\($0.name)\"" }.joined(separator: " or ")); type more of the name"
            )
        }
    }

    /// Stores a new habit and returns it with its id. A name already taken (in any case) is refused.
    public func addHabit(_ habit: Habit) throws -> Habit {
        try write { db in
            try Self.checkNameFree(db, habit.name, except: nil)
            var record = HabitRecord(habit)
            record.id = nil
            try record.insert(db)
            return record.habit
        }
    }

    /// Saves every field of an existing habit but its creation day.
    public func updateHabit(_ habit: Habit) throws {
        try write { db in
            try Self.checkNameFree(db, habit.name, except: habit.id)
            try HabitRecord(habit).update(db, columns: HabitRecord.Columns.editable)
        }
    }

    /// Deletes a habit and its entries; returns how many entries went with it.
    @discardableResult
    public func removeHabit(id: Int64) throws -> Int {
        try write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE habitId = ?", arguments: [id]) ?? 0
            try db.execute(sql: "DELETE FROM habit WHERE id = ?", arguments: [id])
            return count
        }
    }

    private static func checkNameFree(_ db: Database, _ name: String, except id: Int64?) throws {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw StoreError(.invalid, value: name, "a habit needs a name") }
        if let other = try String.fetchOne(
            db, sql: "SELECT name FROM habit WHERE name = ? COLLATE NOCASE AND id IS NOT ?", arguments: [name, id])
        {
            throw StoreError(.conflict, value: name, "a habit named \"\(other)\" already exists")
        }
    }
}
