import Foundation
import GRDB

/// Migration `v16-gate-scopes`: tokens may have the scopes `gate` (the shield's answer and unlock only) and
/// `pairing` (a one-time code exchanged for a gate token). SQLite cannot change a CHECK in place, so
/// the table is rebuilt from its own stored definition (whatever columns earlier migrations added)
/// with the wider CHECK, its rows and indexes kept.
enum GateTokenSchema {
    static let oldCheck = "CHECK (scope IN ('full', 'metrics'))"
    static let newCheck = "CHECK (scope IN ('full', 'metrics', 'gate', 'pairing'))"

    static func widenScopes(_ db: Database) throws {
        guard
            let create = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'api_token'"),
            create.contains(oldCheck), create.hasPrefix("CREATE TABLE \"api_token\"")
        else {
            throw DatabaseError(message: "v16-gate-scopes: api_token is not as v10-token-scope left it")
        }
        let indexes = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'api_token' AND sql IS NOT NULL"
        )
        let widened = create.replacingOccurrences(of: oldCheck, with: newCheck)
            .replacingOccurrences(of: "CREATE TABLE \"api_token\"", with: "CREATE TABLE \"api_token_widened\"")
        try db.execute(sql: widened)
        try db.execute(sql: "INSERT INTO api_token_widened SELECT * FROM api_token")
        try db.execute(sql: "DROP TABLE api_token")
        try db.execute(sql: "ALTER TABLE api_token_widened RENAME TO api_token")
        for index in indexes { try db.execute(sql: index) }
    }
}
