import Foundation
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import PostgresNIO
import Testing

@testable import MorningProofPostgres

/// Every hot query, as the store builds it, planned by PostgreSQL on a database of realistic size
/// (200 accounts x 5 habits x 2 years of entries and daily updates, analysed): a sequential scan of
/// `entry`, `daily_update` or `notification` in its plan fails the test.
@Suite(.enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipped))
struct PostgresPlanTests {
    static let accounts = 200, habitsPerAccount = 5, days = 730
    static let first = LocalDay("2024-01-01")!
    static var today: LocalDay { first.adding(days: days - 1) }

    /// Loads the accounts, their tokens (`token-ID`), habits, entries, daily updates and a day of
    /// notifications with INSERT ... SELECT, then ANALYZE, as PostgreSQL's autovacuum would.
    static func load(_ store: PostgresStore) async throws {
        let day = "to_char(DATE '\(first)' + d, 'YYYY-MM-DD')"
        for statement in [
            """
            INSERT INTO account (email, passwordHash, timeZone, createdAt)
            SELECT 'user' || g || '@example.com', 'x', 'UTC', now() FROM generate_series(1, \(accounts)) g
            """,
            "INSERT INTO api_token (accountId, name, tokenHash, createdAt) SELECT id, 'phone', 'token-' || id, now() FROM account",
            """
            INSERT INTO habit (accountId, name, kind, schedule, createdDay, createdAt)
            SELECT account.id, 'Habit ' || h, 'manual', 'daily', '\(first)', now()
            FROM account, generate_series(1, \(habitsPerAccount)) h
            """,
            """
            INSERT INTO entry (habitId, day, status, source, recordedAt, zone)
            SELECT habit.id, \(day), CASE WHEN (habit.id + d) % 9 = 0 THEN 'skipped' ELSE 'done' END, 'manual', now(), 'UTC'
            FROM habit, generate_series(0, \(days - 1)) d WHERE (habit.id * 7 + d) % 11 <> 0
            """,
            """
            INSERT INTO daily_update (accountId, day, score, metrics, recordedAt, zone)
            SELECT account.id, \(day), 7, '{}', now(), 'UTC' FROM account, generate_series(0, \(days - 1)) d
            """,
            """
            INSERT INTO notification (key, day, event, state, createdAt, accountId)
            SELECT 'reminder:' || habit.id, \(day), '{}', 'delivered', now(), habit.accountId
            FROM habit, generate_series(\(days - 60), \(days - 1)) d
            """,
            "ANALYZE",
        ] {
            try await TestPostgres.execute(store, statement)
        }
    }

    /// The plan nodes of `query` that scan a hot table sequentially, by table.
    static func sequentialScans(_ store: PostgresStore, _ query: PostgresQuery) async throws -> [String] {
        let explain = PostgresQuery(unsafeSQL: "EXPLAIN (FORMAT JSON) " + query.sql, binds: query.binds)
        var text = ""
        for try await buffer in try await store.client.query(explain).decode(ByteBuffer.self) {
            text += String(buffer: buffer)
        }
        return try sequentialScans(plan: text, of: query.sql)
    }

    /// The same for a prepared statement's generic plan (the one PostgreSQL may keep for every run),
    /// prepared with `types` and explained with `arguments` (SQL literals).
    static func genericPlanScans(_ store: PostgresStore, sql: String, types: String, arguments: String) async throws
        -> [String]
    {
        let text = try await store.client.withConnection { connection in
            _ = try await connection.query("SET plan_cache_mode = force_generic_plan", logger: store.logger)
            _ = try await connection.query(
                PostgresQuery(unsafeSQL: "PREPARE planned (\(types)) AS \(sql)"), logger: store.logger)
            var text = ""
            for try await buffer in try await connection.query(
                PostgresQuery(unsafeSQL: "EXPLAIN (FORMAT JSON) EXECUTE planned (\(arguments))"), logger: store.logger
            ).decode(ByteBuffer.self) {
                text += String(buffer: buffer)
            }
            _ = try await connection.query("DEALLOCATE planned", logger: store.logger)
            _ = try await connection.query("RESET plan_cache_mode", logger: store.logger)
            return text
        }
        return try sequentialScans(plan: text, of: sql)
    }

    /// The tables a JSON plan scans sequentially.
    static func sequentialScans(plan text: String, of sql: String) throws -> [String] {
        let plans = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        var scans: [String] = []
        func visit(_ node: [String: Any]) {
            if node["Node Type"] as? String == "Seq Scan", let table = node["Relation Name"] as? String,
                ["entry", "daily_update", "notification"].contains(table)
            {
                scans.append(table)
            }
            for child in node["Plans"] as? [[String: Any]] ?? [] { visit(child) }
        }
        for plan in plans { if let root = plan["Plan"] as? [String: Any] { visit(root) } }
        #expect(!plans.isEmpty, "no plan for \(sql)")
        return scans
    }

    @Test func noHotQueryScansEntriesOrDailyUpdatesWhole() async throws {
        try await TestPostgres.withStore { store in
            try await Self.load(store)
            let accountID = Int64(Self.accounts / 2)
            let account = store.scoped(to: accountID)
            let habits = try await account.habits(includeArchived: false)
            #expect(habits.count == Self.habitsPerAccount)
            let ids = habits.map(\.id)
            // Status (and the notify pass's judgement): built states, then read from them.
            _ = try await account.progress(of: habits, today: Self.today, need: .summary)
            let progress = try await account.progress(of: habits, today: Self.today, need: .summary)
            #expect(progress.allSatisfy { $0.timeline.knownFrom > $0.timeline.firstDay }, "read from stored states")
            let origin = Self.today.adding(days: -40)
            let queries: [(String, PostgresQuery)] = [
                ("status: stored states", PostgresStore.storedStatesQuery(ids)),
                ("status: habits, states and entries of today",
                 PostgresStore.todayQuery(accountID: accountID, day: Self.today)),
                ("status: habits, states and entries, spans known",
                 PostgresStore.todayQuery(accountID: accountID, day: Self.today, spans: ["daily": 2, "week:3": 20])),
                ("token",
                 PostgresStore.TokenAccountStatement(tokenHash: "token-\(accountID)", now: Date(), scopes: ["full"]).query),
                ("status: days since the states",
                 PostgresStore.dayStatusesQuery(ids.map { ($0, origin) }, accountID: accountID)),
                ("report: whole histories", PostgresStore.dayStatusesQuery(ids.map { ($0, nil) }, accountID: accountID)),
                ("entries of a day", PostgresStore.entryQuery(habitID: ids[0], day: Self.today)),
                ("daily update: refresh after a write", PostgresStore.refreshQuery([ids[0]])),
                ("summary", PostgresStore.summaryQuery(tokenHash: "token-\(accountID)", at: Date(), scopes: [.full])),
                ("summary: the day's update", PostgresStore.updateQuery(accountID: accountID, day: Self.today)),
                ("what is due: settled notifications",
                 PostgresStore.settledQuery(["reminder:\(ids[0])"], day: Self.today)),
            ]
            // The check itself sees a scan where there is one.
            #expect(
                try await Self.sequentialScans(store, "SELECT count(*) FROM entry WHERE note IS NOT NULL") == ["entry"])
            for (name, query) in queries {
                let scans = try await Self.sequentialScans(store, query)
                #expect(scans.isEmpty, "\(name) scans \(scans) sequentially: \(query.sql)")
            }
            // The prepared statements' generic plans too.
            let prepared: [(String, String, String)] = [
                (
                    PostgresStore.TodayStatement.sql, "bigint, text, text[], int[], int",
                    "\(accountID), '\(Self.today)', '{daily}', '{2}', 90"
                ),
                (
                    PostgresStore.TokenAccountStatement.sql, "text, timestamptz, text[]",
                    "'token-\(accountID)', now(), '{full}'"
                ),
                (
                    PostgresStore.SummaryStatement.sql, "text, timestamptz, text[]",
                    "'token-\(accountID)', now(), '{full}'"
                ),
            ]
            for (sql, types, arguments) in prepared {
                let scans = try await Self.genericPlanScans(store, sql: sql, types: types, arguments: arguments)
                #expect(scans.isEmpty, "the generic plan scans \(scans) sequentially: \(sql)")
            }
        }
    }
}
