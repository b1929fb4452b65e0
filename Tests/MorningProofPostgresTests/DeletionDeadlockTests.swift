import Foundation
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import PostgresNIO
import Testing

@testable import MorningProofPostgres

/// attack43: on PostgreSQL, `DELETE /api/auth/account` racing the account's own writes (a metrics
/// upload) answered 503 "deadlock detected; try again" now and then, and the account stayed. A
/// write that holds one of the account's rows and then checks a foreign key to the account waits
/// for the deletion, which waits for that row: PostgreSQL fails one of the two. The deletion, which
/// rolled back whole, starts again and deletes the account.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct DeletionDeadlockTests {
    @Test func aDeletionCaughtInADeadlockWithTheAccountsOwnWriteStillDeletes() async throws {
        try await TestPostgres.withStore(poolSize: 4) { store in
            let ada = try await Fixture.account(store, "ada@example.com")
            let id = ada.id
            try await TestPostgres.execute(
                store,
                "INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count) VALUES (\(id), 'steps', '2026-05-01', 'phone', 'samples', 100, 1)"
            )
            let holderRolledBack = try await store.client.withConnection { writer in
                // This side looks for deadlocks late, so that the deletion is the one PostgreSQL fails.
                try await writer.query("SET deadlock_timeout = '60s'", logger: store.logger)
                // The account's own write: one of its rows first...
                try await writer.query("BEGIN", logger: store.logger)
                try await writer.query(
                    "UPDATE metricDaily SET value = value + 1 WHERE accountId = \(id)", logger: store.logger)
                let deletion = Task { try await store.deleteAccount(id) }
                // ...the deletion waits for that row (after taking the account's)...
                try await Self.waitForALockWait(store)
                // ...and the write checks its foreign key to the account: a deadlock.
                var rolledBack = false
                do {
                    try await writer.query(
                        #"INSERT INTO metricSample (accountId, metric, source, start, "end", value, day) VALUES (\#(id), 'steps', 'phone', 1, 2, 100, '2026-05-01')"#,
                        logger: store.logger)
                    try await writer.query("COMMIT", logger: store.logger)
                } catch {
                    rolledBack = true
                    try await writer.query("ROLLBACK", logger: store.logger)
                }
                #expect(try await deletion.value, "the deletion found the account")
                return rolledBack
            }
            #expect(try await store.profile(of: id) == nil, "the account is deleted")
            let left = try await TestPostgres.strings(
                store,
                "SELECT ((SELECT count(*) FROM metricDaily WHERE accountId = \(id)) + (SELECT count(*) FROM metricSample WHERE accountId = \(id)))::text"
            )
            #expect(left == ["0"], "rows of the deleted account: \(left)")
            #expect(!holderRolledBack, "the write was the one failed; the deletion was not put to the test")
        }
    }

    /// Returns once another backend waits for a lock (the deletion, for the row held).
    static func waitForALockWait(_ store: PostgresStore) async throws {
        for _ in 0..<600 {
            let waiting = try await TestPostgres.strings(
                store,
                "SELECT count(*)::text FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if waiting != ["0"] { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the deletion never waited for the row held")
    }
}
