import GRDB
import MorningProofCore
import MorningProofStoreContract

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

    /// Habits, settings (the check-in's texts among them) and gate unlocks belong to an account, so
    /// that one account never sees another's; what was stored before is the owner's. Entries, check-in
    /// answers and evidence belong to their habit. Habit names are unique per account, in any case.
    /// SQLite cannot change a column's constraints, so the three tables are rebuilt (GRDB runs
    /// migrations with foreign keys off and checks them at the end, so entries keep their habits).
    static func ownRows(_ db: Database) throws {
        try rebuild(db, "habit", columns: habitColumns) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("accountId", .integer).notNull().defaults(to: AccountProfile.ownerID)
                .references("account", onDelete: .cascade)
            t.column("name", .text).notNull().collate(.nocase)
            t.column("kind", .text).notNull()
                .check(sql: "kind IN ('manual', 'photo', 'metric', 'checkin')")
            t.column("schedule", .text).notNull()
            t.column("remindAt", .integer)
            t.column("required", .boolean).notNull().defaults(to: false)
            t.column("note", .text)
            t.column("archived", .boolean).notNull().defaults(to: false)
            t.column("goalMetric", .text)
            t.column("goalComparison", .text).check(sql: "goalComparison IN ('atLeast', 'atMost')")
            t.column("goalTarget", .double)
            t.column("goalActivity", .text)
            t.column("createdDay", .text).notNull()
            t.column("createdAt", .datetime).notNull()
        }
        try db.execute(sql: "CREATE UNIQUE INDEX habit_on_accountId_name ON habit(accountId, name COLLATE NOCASE)")

        try rebuild(db, "setting", columns: ["key", "value"]) { t in
            t.column("accountId", .integer).notNull().defaults(to: AccountProfile.ownerID)
                .references("account", onDelete: .cascade)
            t.column("key", .text).notNull()
            t.column("value", .text).notNull()
            t.primaryKey(["accountId", "key"])
        }
        try rebuild(db, "gateUnlock", columns: ["id", "day", "at", "reason"]) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("accountId", .integer).notNull().defaults(to: AccountProfile.ownerID)
                .references("account", onDelete: .cascade)
            t.column("day", .text).notNull()
            t.column("at", .datetime).notNull()
            t.column("reason", .text).notNull()
            t.uniqueKey(["accountId", "day"])
        }
    }

    static let habitColumns = [
        "id", "name", "kind", "schedule", "remindAt", "required", "note", "archived", "goalMetric", "goalComparison",
        "goalTarget", "goalActivity", "createdDay", "createdAt",
    ]

    /// Replaces `table` by one made by `body`, keeping the rows (their `columns`) as the owner's.
    static func rebuild(
        _ db: Database, _ table: String, columns: [String], _ body: (TableDefinition) throws -> Void
    ) throws {
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        try db.create(table: table + "_new", body: body)
        try db.execute(sql: "INSERT INTO \(table)_new (accountId, \(list)) SELECT 1, \(list) FROM \(table)")
        try db.drop(table: table)
        try db.rename(table: table + "_new", to: table)
    }
}
