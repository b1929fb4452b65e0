import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: HabitStore {
    /// Active habits (and archived ones when asked), in the order the person set, then the order they were created.
    public func habits(includeArchived: Bool = false) async throws -> [Habit] {
        // Plain SQL: building the query through GRDB's query interface cost more than running it.
        try await asyncRead { db in
            try HabitRecord.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT * FROM habit WHERE accountId = ?\(includeArchived ? "" : " AND NOT archived") ORDER BY position IS NULL, position, id"
                ),
                arguments: [accountID]
            ).map(\.habit)
        }
    }

    public func habit(id: Int64) async throws -> Habit? {
        try await asyncRead { db in try Self.ownHabit(db, id: id, accountID: accountID)?.habit }
    }

    /// Stores a new habit and returns it with its id. A name already taken (in any case) is refused.
    public func addHabit(_ habit: Habit) async throws -> Habit {
        try await asyncWrite { db in
            try Self.checkNameFree(db, habit.name, except: nil, accountID: accountID)
            var record = HabitRecord(habit, accountID: accountID)
            record.id = nil
            try record.insert(db)
            return record.habit
        }
    }

    /// Saves every field of an existing habit but its creation day.
    public func updateHabit(_ habit: Habit) async throws {
        try await asyncWrite { db in
            try requireOwnHabit(db, habit.id)
            try Self.saveHabit(db, habit, accountID: accountID)
        }
    }

    /// Saves every field of the account's existing `habit` but its creation day; a name another
    /// habit has (in any case) is refused.
    static func saveHabit(_ db: Database, _ habit: Habit, accountID: Int64) throws {
        try checkNameFree(db, habit.name, except: habit.id, accountID: accountID)
        try HabitRecord(habit, accountID: accountID).update(db, columns: HabitRecord.Columns.editable)
    }

    /// Deletes a habit and its entries; returns how many entries went with it.
    @discardableResult
    public func removeHabit(id: Int64) async throws -> Int {
        try await asyncWrite { db in
            try requireOwnHabit(db, id)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE habitId = ?", arguments: [id]) ?? 0
            try db.execute(sql: "DELETE FROM habit WHERE id = ?", arguments: [id])
            return count
        }
    }

    /// Places the habits `ids` first, in that order; another account's id (or none) changes nothing.
    public func setHabitOrder(_ ids: [Int64]) async throws {
        try await asyncWrite { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE habit SET position = ? WHERE id = ? AND accountId = ?")
            for (index, id) in ids.enumerated() {
                try statement.execute(arguments: [index + 1, id, accountID])
                guard db.changesCount == 1 else { throw StoreError.noHabit(id) }
            }
        }
    }

    /// The habit `id` when it belongs to the account; nil for another account's.
    static func ownHabit(_ db: Database, id: Int64, accountID: Int64) throws -> HabitRecord? {
        try HabitRecord.filter(key: id).filter(HabitRecord.Columns.accountId == accountID).fetchOne(db)
    }

    /// Refuses a habit id of another account (or none): its rows are not this account's to read or write.
    func requireOwnHabit(_ db: Database, _ id: Int64) throws {
        guard try Self.ownHabit(db, id: id, accountID: accountID) != nil else { throw StoreError.noHabit(id) }
    }

    private static func checkNameFree(_ db: Database, _ name: String, except id: Int64?, accountID: Int64) throws {
        guard !HabitNameMatch.isBlank(name) else { throw StoreError.blankHabitName(name) }
        if let other = try String.fetchOne(
            db, sql: "SELECT name FROM habit WHERE accountId = ? AND name = ? COLLATE NOCASE AND id IS NOT ?",
            arguments: [accountID, name, id])
        {
            throw StoreError.habitNameTaken(name, by: other)
        }
    }
}
