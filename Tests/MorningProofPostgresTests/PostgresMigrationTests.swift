import Foundation
import GRDB
import MorningProofCore
import MorningProofPostgres
import MorningProofStoreContract
import MorningProofTestSupport
import PostgresNIO
import Testing

@testable import MorningProofSQLite

@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct PostgresMigrationTests {
    @Test func appliesEachMigrationOnceAndThenNothing() async throws {
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 2)
            #expect(try await store.migrate() == PostgresStore.migrationNames)
            #expect(try await store.migrate() == [])
            #expect(try await PostgresStore(url: url, poolSize: 1).migrate() == [])
            let names = try await TestPostgres.strings(url, "SELECT name FROM schema_migrations ORDER BY name")
            #expect(names == PostgresStore.migrationNames.sorted())
        }
    }

    @Test func fourMigratorsAtOnceOnAnEmptyDatabaseEachApplyNothingTwice() async throws {
        try await TestPostgres.withDatabase { url in
            let applied = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<4 { group.addTask { try await PostgresStore(url: url, poolSize: 1).migrate() } }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(applied.sorted() == PostgresStore.migrationNames.sorted())
            #expect(try await TestPostgres.strings(url, "SELECT count(*)::text FROM account") == ["1"])
            #expect(
                try await TestPostgres.strings(url, "SELECT count(*)::text FROM schema_migrations")
                    == ["\(PostgresStore.migrationNames.count)"])
        }
    }

    @Test func refusesADatabaseFromANewerMorningProofAndChangesNothing() async throws {
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 1)
            try await store.whileRunning {
                try await store.client.query(
                    "CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL)")
                try await store.client.query("INSERT INTO schema_migrations VALUES ('v99-from-the-future', now())")
            }
            // A generous wait: on a loaded machine the default was once passed by the connect alone, and
            // the refusal read "cannot connect" instead of naming the migration.
            let error = await #expect(throws: StoreError.self) {
                try await PostgresStore(url: url, poolSize: 1, connectionWait: .seconds(30)).migrate()
            }
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains("v99-from-the-future") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("newer MorningProof") == true)
            #expect(
                try await TestPostgres.strings(url, "SELECT name FROM schema_migrations") == ["v99-from-the-future"])
            #expect(
                try await TestPostgres.strings(url, "SELECT coalesce(to_regclass('account')::text, 'none')") == ["none"]
            )
        }
    }

    @Test func theOwnerExistsAndNewAccountsComeAfterIt() async throws {
        try await TestPostgres.withStore { store in
            let owner = try #require(try await store.profile(of: AccountProfile.ownerID))
            #expect(owner == AccountProfile(id: 1, email: nil, timeZone: nil))
            let created = try await store.createAccount(
                email: "ada@example.com", passwordHash: "h", timeZone: "UTC", at: Date(timeIntervalSince1970: 1e9))
            #expect(created?.id == 2)
        }
    }

    @Test func aDatabaseThatDoesNotExistIsUnavailable() async throws {
        let server = try #require(TestPostgres.url)
        let error = await #expect(throws: StoreError.self) {
            try await PostgresStore(url: server.database("mp_no_such_database"), poolSize: 1).migrate()
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("there is no database \"mp_no_such_database\"") == true)
    }

    @Test func aValueOfAnotherTypeIsUnavailableNotACrash() async throws {
        try await TestPostgres.withStore { store in
            try await store.client.query("ALTER TABLE account ALTER COLUMN dayStart TYPE text USING dayStart::text")
            let error = await #expect(throws: StoreError.self) { try await store.profile(of: AccountProfile.ownerID) }
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains("column daystart holds a TEXT") == true, "\(error?.message ?? "")")
        }
    }

    /// The schema holds every table and column of the SQLite store (its habit-state cache too),
    /// and the same foreign keys (since `v20-account-keys`, SQLite's zoneChange has its key too); PostgreSQL
    /// adds the table of failed sign-ins that servers share (one SQLite server keeps them in memory), and
    /// SQLite the tables an upload is staged in (`v21-upload-staging`).
    @Test func theSchemaIsTheSQLiteStoresTableForTable() async throws {
        let sqlite = try AppDatabase.inMemory()
        let (sqliteColumns, sqliteKeys) = try await sqlite.writer.read { db in
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name NOT IN ('grdb_migrations')
                    -- SQLite's upload staging (v21): PostgreSQL stores an upload in one transaction.
                    AND name NOT IN ('metricUploadSample', 'metricUploadBucket', 'metricUploadInterval')
                    """)
            var columns: Set<String> = [], keys: Set<String> = []
            for table in tables {
                for column in try db.columns(in: table) { columns.insert("\(table).\(column.name)".lowercased()) }
                for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table))") {
                    let onDelete: String = row["on_delete"]
                    keys.insert(
                        "\(table).\(row["from"] as String) -> \(row["table"] as String) \(onDelete)".lowercased())
                }
            }
            return (columns, keys)
        }
        try await TestPostgres.withStore { store in
            let columns = try await TestPostgres.strings(
                store,
                """
                SELECT table_name || '.' || column_name FROM information_schema.columns
                WHERE table_schema = 'public' AND table_name NOT IN ('schema_migrations', 'signinattempt')
                """)
            #expect(Set(columns) == sqliteColumns)
            let keys = try await TestPostgres.strings(
                store,
                """
                SELECT c.conrelid::regclass::text || '.' || a.attname || ' -> ' || c.confrelid::regclass::text || ' '
                    || CASE c.confdeltype WHEN 'c' THEN 'cascade' WHEN 'a' THEN 'no action' ELSE c.confdeltype::text END
                FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                WHERE c.contype = 'f'
                """)
            #expect(Set(keys) == sqliteKeys)
        }
    }

    @Test func habitNamesAreUniquePerAccountInAnyASCIICase() async throws {
        try await TestPostgres.withStore { store in
            func add(_ name: String, account: Int64) async throws {
                try await store.client.query(
                    """
                    INSERT INTO habit (accountId, name, kind, schedule, createdDay, createdAt)
                    VALUES (\(account), \(name), 'manual', 'daily', '2026-03-01', now())
                    """)
            }
            let other = try #require(
                try await store.createAccount(email: "b@example.com", passwordHash: "h", timeZone: nil, at: Date()))
            try await add("Make bed", account: 1)
            try await add("MAKE BED", account: other.id)
            await #expect(throws: PSQLError.self) { try await add("make BED", account: 1) }
            // SQLite's NOCASE folds ASCII letters only: "É" and "é" are two names there, and here.
            try await add("Éveil", account: 1)
            try await add("éveil", account: 1)
        }
    }
}
