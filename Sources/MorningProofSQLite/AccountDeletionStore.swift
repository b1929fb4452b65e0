import Foundation
import GRDB
import MorningProofStoreContract

/// Deleting an account with every row it owns, in SQLite: the tables are read from the schema.
extension AppDatabase: AccountDeletionStore {
    public func deleteAccount(_ accountID: Int64) async throws -> Bool {
        try await asyncWrite { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE id = ?", arguments: [accountID]) != nil
            else { return false }
            let habitIDs = try Int64.fetchAll(
                db, sql: "SELECT id FROM habit WHERE accountId = ?", arguments: [accountID])
            let tables = AccountOwnership.deletionOrder(try Self.ownedTableColumns(db))
            // The habit-state triggers note habits as changed when their entries, zone changes or
            // settings go: a second pass deletes what the first made them note.
            for _ in 0..<4 {
                var deleted = 0
                for (table, ownership) in tables {
                    guard let condition = ownership.condition(accountID: accountID, habitIDs: habitIDs) else {
                        continue
                    }
                    try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)")
                    deleted += db.changesCount
                }
                if deleted == 0 { break }
            }
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [accountID])
            return db.changesCount == 1
        }
    }

    /// Every table of the database with its columns, but SQLite's and GRDB's own.
    static func ownedTableColumns(_ db: Database) throws -> [String: [String]] {
        let names = try String.fetchAll(
            db,
            sql:
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'"
        )
        var tables: [String: [String]] = [:]
        for name in names { tables[name] = try db.columns(in: name).map(\.name) }
        return tables
    }
}
