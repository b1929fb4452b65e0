import GRDB

/// What an account's care adds (issue 41): an account can be disabled, a token remembers the
/// device it was issued to and the last hour it was used, and reset codes are kept by SHA-256.
enum AccountCareSchema {
    static func create(_ db: Database) throws {
        // Null: enabled. A disabled account keeps its data and tokens; its tokens sign nothing in.
        try db.execute(sql: "ALTER TABLE account ADD COLUMN disabledAt DATETIME")
        // "Safari on iPhone", from the User-Agent of the sign-in; null for a script's token.
        try db.execute(sql: "ALTER TABLE api_token ADD COLUMN device TEXT")
        // The start of the last hour the token was used in: written at most once an hour.
        try db.execute(sql: "ALTER TABLE api_token ADD COLUMN lastUsedAt DATETIME")
        // One-time codes that set a new password, valid an hour; only their SHA-256.
        try db.create(table: "passwordReset") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("codeHash", .text).notNull().unique()
            t.column("createdAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull()
        }
    }
}
