import Foundation
import GRDB

/// Migration `v20-account-keys`: the two tables that held an account's id without a foreign key to it,
/// `notification` (since v9-metric-accounts) and `zoneChange` (since v6-accounts: SQLite cannot add
/// a column with both a foreign key and a default), get one, ON DELETE CASCADE, as every other
/// account-owned table has: a row can no longer outlive its account (a reminder claimed while the
/// account was being deleted left one). Rows whose account is gone go first. SQLite cannot add a
/// foreign key to a table, so each is rebuilt from its own stored definition (whatever columns
/// earlier migrations added), its rows, indexes and triggers kept.
enum AccountKeySchema {
    static let tables = ["notification", "zoneChange"]
    /// The column as `ALTER TABLE ... ADD COLUMN` stored it, and as it becomes.
    static let column = #""accountId" INTEGER NOT NULL DEFAULT 1"#
    static let keyedColumn = column + #" REFERENCES "account"("id") ON DELETE CASCADE"#

    static func addKeys(_ db: Database) throws {
        for table in tables {
            try db.execute(sql: "DELETE FROM \(table) WHERE accountId NOT IN (SELECT id FROM account)")
            try addKey(db, table)
        }
    }

    private static func addKey(_ db: Database, _ table: String) throws {
        let head = "CREATE TABLE \"\(table)\""
        guard
            let create = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]),
            create.hasPrefix(head), create.components(separatedBy: column).count == 2
        else {
            throw DatabaseError(message: "v20-account-keys: \(table) is not as the earlier migrations left it")
        }
        // Indexes and triggers go with the table they belong to: kept here, made again on the new one.
        let dependents = try String.fetchAll(
            db,
            sql:
                "SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? AND sql IS NOT NULL",
            arguments: [table])
        let keyed = "\(table)_keyed"
        try db.execute(
            sql: create.replacingOccurrences(of: column, with: keyedColumn)
                .replacingOccurrences(of: head, with: "CREATE TABLE \"\(keyed)\""))
        try db.execute(sql: "INSERT INTO \"\(keyed)\" SELECT * FROM \"\(table)\"")
        try db.execute(sql: "DROP TABLE \"\(table)\"")
        try db.execute(sql: "ALTER TABLE \"\(keyed)\" RENAME TO \"\(table)\"")
        for sql in dependents { try db.execute(sql: sql) }
    }
}
