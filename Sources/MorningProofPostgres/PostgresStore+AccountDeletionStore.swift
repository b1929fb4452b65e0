import Foundation
import MorningProofStoreContract
import PostgresNIO

/// Deleting an account with every row it owns, in PostgreSQL: the tables are read from the schema,
/// as `AppDatabase`'s.
extension PostgresStore: AccountDeletionStore {
    /// Times a deletion is tried when PostgreSQL fails it to end a deadlock.
    static let deletionAttempts = 5

    /// A write of the account that holds one of its rows and then checks a foreign key to the account
    /// waits for the deletion, which waits for that row: PostgreSQL ends the deadlock by failing one of
    /// the two. The deletion, rolled back whole, starts again (the write, if it was let through, is
    /// deleted with the rest).
    public func deleteAccount(_ accountID: Int64) async throws -> Bool {
        var attempt = 1
        while true {
            do {
                return try await deleteAccountOnce(accountID)
            } catch let error as StoreError where error.code == .busy && attempt < Self.deletionAttempts {
                attempt += 1
            }
        }
    }

    private func deleteAccountOnce(_ accountID: Int64) async throws -> Bool {
        try await transaction(.writing) { connection in
            // Taken first, so that a sign-in or a write of the account meanwhile waits for the end.
            let found = try await connection.query(
                "SELECT id FROM account WHERE id = \(accountID) FOR UPDATE", logger: logger
            ).collect()
            guard !found.isEmpty else { return false }
            var habitIDs: [Int64] = []
            for try await id in try await connection.query(
                "SELECT id FROM habit WHERE accountId = \(accountID)", logger: logger
            ).decode(Int64.self) { habitIDs.append(id) }
            let tables = AccountOwnership.deletionOrder(try await Self.tableColumns(connection, logger: logger))
            // The habit-state triggers note habits as changed when their entries or zone changes go:
            // a second pass deletes what the first made them note.
            for _ in 0..<4 {
                var deleted = 0
                for (table, ownership) in tables {
                    guard let condition = ownership.condition(accountID: accountID, habitIDs: habitIDs) else {
                        continue
                    }
                    // Names from the catalog and integer ids only: no value a person wrote.
                    let sql =
                        "WITH gone AS (DELETE FROM \"\(table)\" WHERE \(condition) RETURNING 1) SELECT count(*) FROM gone"
                    for try await count in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                        .decode(Int64.self)
                    { deleted += Int(count) }
                }
                if deleted == 0 { break }
            }
            return
                !(try await connection.query(
                    "DELETE FROM account WHERE id = \(accountID) RETURNING id", logger: logger
                ).collect().isEmpty)
        }
    }

    /// Every table of the store's schema with its columns (PostgreSQL's own catalogs left out).
    static func tableColumns(_ connection: PostgresConnection, logger: Logger) async throws -> [String: [String]] {
        var tables: [String: [String]] = [:]
        let rows = try await connection.query(
            """
            SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c
            JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            """, logger: logger)
        for try await (table, column) in rows.decode((String, String).self) {
            tables[table, default: []].append(column)
        }
        return tables
    }
}
