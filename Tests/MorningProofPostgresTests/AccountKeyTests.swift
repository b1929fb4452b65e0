import Foundation
import GRDB
import MorningProofCore
import MorningProofPostgres
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

@testable import MorningProofSQLite

/// Migration `v20-account-keys`: every table that holds an account's id has a foreign key to the account,
/// ON DELETE CASCADE, on both engines. `notification` had none on either engine, SQLite's
/// `zoneChange` none either: a reminder claimed while its account was deleted could be left behind.
@Suite struct AccountKeyTests {
    /// The migration that adds the keys, and the one before it.
    static let migration = "v20-account-keys"
    static let before = "v19-sealed-challenges"

    @Test(arguments: Engine.available) func everyAccountColumnHasAKeyToTheAccount(engine: Engine) async throws {
        try await engine.withStore { store in
            let schema = try await RawSQL(store: store).tables()
            let holders = schema.filter { $0.value.contains { $0.lowercased() == "accountid" } }.keys
            let keyed = try await Self.tablesKeyedToTheAccount(store)
            let missing = holders.map { $0.lowercased() }.filter { !keyed.contains($0) }.sorted()
            #expect(missing.isEmpty, "tables with an accountId and no ON DELETE CASCADE key to account: \(missing)")
        }
    }

    /// Claims made before, during and after the deletion of their account: each is made or refused as
    /// "not found" (the account is gone), and no notification of the account is left.
    @Test(arguments: Engine.available) func aClaimRacingTheAccountsDeletionLeavesNoRow(engine: Engine) async throws {
        try await engine.withStore(file: true) { store in
            for round in 0..<4 {
                let ada = try await Fixture.account(store, "ada\(round)@example.com")
                let account = store.scoped(to: ada.id)
                let habit = try await account.addHabit(Fixture.habit("Read"))
                func claim(_ index: Int) async throws -> ClaimDecision {
                    try await account.decideAndClaim(
                        ClaimRequest(key: "reminder:\(habit.id):\(index)", day: Fixture.day, event: "{}"),
                        at: Fixture.noon, lease: 60)
                }
                let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<16 {
                        group.addTask {
                            do {
                                return try await claim(index).claim == nil ? "none" : "claimed"
                            } catch let error as StoreError where error.code == .notFound {
                                return "gone"
                            }
                        }
                        if index == 4 { group.addTask { try await store.deleteAccount(ada.id) ? "deleted" : "none" } }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(outcomes.contains("deleted"), "\(outcomes)")
                let late = await #expect(throws: StoreError.self, "a claim after the deletion") { try await claim(99) }
                #expect(late?.code == .notFound)
                let left = try await RawSQL(store: store).integers(
                    "SELECT count(*) FROM notification WHERE accountId = \(ada.id)")
                #expect(left == [0], "round \(round): notifications of the deleted account left: \(left); \(outcomes)")
            }
        }
    }

    /// SQLite: orphan rows (an account deleted before the key) go, the account's rows stay with their
    /// indexes and zoneChange's habit-state triggers, and the key then deletes with the account.
    @Test func sqliteRemovesOrphansThenKeysTheTables() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration)
        try AppDatabase.migrator.migrate(queue, upTo: Self.before)
        let at = "'2026-05-01 12:00:00.000'"
        try queue.write { db in
            for id in [2, 3] {
                try db.execute(
                    sql: "INSERT INTO account (id, email, createdAt) VALUES (\(id), 'p\(id)@example.com', \(at))")
            }
            for id in [2, 3, 999] {
                try db.execute(
                    sql: """
                        INSERT INTO notification (key, day, event, state, attempts, createdAt, accountId)
                        VALUES ('reminder:\(id)', '2026-05-01', '{}', 'delivered', 1, \(at), \(id))
                        """)
                try db.execute(
                    sql: """
                        INSERT INTO zoneChange (at, fromZone, fromDayStart, toZone, toDayStart, accountId)
                        VALUES (\(at), 'UTC', 0, 'Asia/Tokyo', 0, \(id))
                        """)
            }
        }
        let kept = try queue.read(Self.dependents)
        try AppDatabase.migrator.migrate(queue)
        #expect(try Self.accounts(queue) == ["notification": [2, 3], "zoneChange": [2, 3]])
        #expect(try queue.read(Self.dependents) == kept)
        #expect(kept.contains("zoneChange trigger habitState_zone_inserted"), "\(kept)")
        #expect(kept.contains("notification index notification_on_accountId_day"), "\(kept)")
        try queue.write { try $0.execute(sql: "DELETE FROM account WHERE id = 2") }
        #expect(try Self.accounts(queue) == ["notification": [3], "zoneChange": [3]])
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO notification (key, day, event, state, createdAt, accountId)
                        VALUES ('reminder:998', '2026-05-01', '{}', 'claimed', \(at), 998)
                        """)
            }
        }
    }

    /// PostgreSQL: the migration applied to a database with an orphan notification removes it, keeps
    /// the account's, and the key then deletes with the account.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func postgresRemovesOrphansThenKeysNotifications() async throws {
        try await TestPostgres.withStore { store in
            // As the database was before this migration: no key, and an orphan row among the others.
            for statement in [
                "ALTER TABLE notification DROP CONSTRAINT notification_accountid_fkey",
                "DELETE FROM schema_migrations WHERE name = '\(Self.migration)'",
                "INSERT INTO account (id, email, createdAt) VALUES (2, 'p2@example.com', now()), (3, 'p3@example.com', now())",
                """
                INSERT INTO notification (key, day, event, state, attempts, createdAt, accountId)
                SELECT 'reminder:' || id, '2026-05-01', '{}', 'delivered', 1, now(), id FROM unnest(ARRAY[2, 3, 999]) AS id
                """,
            ] {
                try await TestPostgres.execute(store, statement)
            }
            #expect(try await store.migrate() == [Self.migration])
            let kept = try await TestPostgres.strings(store, "SELECT accountId::text FROM notification ORDER BY 1")
            #expect(kept == ["2", "3"])
            try await TestPostgres.execute(store, "DELETE FROM account WHERE id = 2")
            #expect(try await TestPostgres.strings(store, "SELECT accountId::text FROM notification") == ["3"])
            #expect(Set(try await Self.tablesKeyedToTheAccount(store)).contains("notification"))
        }
    }

    /// The tables (lower case) with an `accountId` column keyed to `account`, ON DELETE CASCADE.
    static func tablesKeyedToTheAccount(_ store: any AccountStore & PerAccountStore) async throws -> Set<String> {
        if let sqlite = store as? AppDatabase {
            return try await sqlite.writer.read { db in
                var keyed: Set<String> = []
                for table in try AppDatabase.ownedTableColumns(db).keys {
                    for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table.quotedDatabaseIdentifier))")
                    where (row["table"] as String).lowercased() == "account"
                        && (row["from"] as String).lowercased() == "accountid"
                        && row["on_delete"] as String == "CASCADE"
                    {
                        keyed.insert(table.lowercased())
                    }
                }
                return keyed
            }
        }
        guard let postgres = store as? PostgresStore else { return [] }
        return Set(
            try await TestPostgres.strings(
                postgres,
                """
                SELECT c.conrelid::regclass::text FROM pg_constraint c
                JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                WHERE c.contype = 'f' AND c.confrelid = 'account'::regclass AND a.attname = 'accountid'
                  AND c.confdeltype = 'c'
                """))
    }

    /// The accounts of the rows of `notification` and `zoneChange`, in order.
    static func accounts(_ queue: DatabaseQueue) throws -> [String: [Int64]] {
        try queue.read { db in
            var accounts: [String: [Int64]] = [:]
            for table in ["notification", "zoneChange"] {
                accounts[table] = try Int64.fetchAll(db, sql: "SELECT accountId FROM \(table) ORDER BY accountId")
            }
            return accounts
        }
    }

    /// The indexes and triggers of `notification` and `zoneChange`, as "table kind name".
    static func dependents(_ db: Database) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT tbl_name || ' ' || type || ' ' || name FROM sqlite_master
                    WHERE type IN ('index', 'trigger') AND tbl_name IN ('notification', 'zoneChange')
                      AND name NOT LIKE 'sqlite_%'
                    """))
    }
}
