import GRDB

/// The server's tables: accounts, their API tokens and the seed API's daily updates. The data
/// that was there before becomes the owner account (account 1).
enum AccountSchema {
    static func create(_ db: Database) throws {
        try db.create(table: "account") { t in
            t.autoIncrementedPrimaryKey("id")
            // Null for the owner until one is set: the CLI needs no address.
            t.column("email", .text).unique().collate(.nocase)
            t.column("passwordHash", .text)
            // Not used for the owner, whose clock is the CLI's settings (`timezone`, `day-start`, `week-start`).
            t.column("timeZone", .text)
            t.column("dayStart", .integer).notNull().defaults(to: 0)
            t.column("weekStart", .integer).notNull().defaults(to: 1)
            t.column("createdAt", .datetime).notNull()
        }
        try db.execute(sql: "INSERT INTO account (id, createdAt) VALUES (1, strftime('%Y-%m-%d %H:%M:%f', 'now'))")

        // Only a SHA-256 of each token: the database alone cannot sign anyone in.
        try db.create(table: "api_token") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("name", .text).notNull()
            t.column("tokenHash", .text).notNull().unique()
            t.column("createdAt", .datetime).notNull()
            // Null: never expires (tokens for scripts).
            t.column("expiresAt", .datetime)
        }

        // One per account and local day: the UNIQUE key, not a read, decides simultaneous requests.
        try db.create(table: "daily_update") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("day", .text).notNull()
            t.column("score", .double)
            t.column("metrics", .text).notNull()
            t.column("recordedAt", .datetime).notNull()
            t.column("zone", .text).notNull()
            t.uniqueKey(["accountId", "day"])
        }

        // Zone changes belong to an account; those recorded so far are the owner's. (SQLite cannot
        // add a column with a foreign key and a default, so the account is checked by the code.)
        try db.alter(table: "zoneChange") { t in
            t.add(column: "accountId", .integer).notNull().defaults(to: 1)
        }
        try db.create(index: "zoneChange_on_accountId_at", on: "zoneChange", columns: ["accountId", "at"])
    }
}
