import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import TestFixtures
import Testing

/// PostgreSQL going away under a running server, and coming back.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct OutageTests {
    /// A store whose PostgreSQL cannot be reached answers with the reason, not after postgres-nio's
    /// minute: the pool hands out nothing, the probe is refused, and from then on every call fails
    /// at once with the same reason.
    @Test func aStoreWithNoServerFailsWithTheReason() async throws {
        // Nothing listens on port 1 of the loopback address.
        let store = try PostgresStore(
            url: "postgres://morningproof@127.0.0.1:1/none", poolSize: 2, connectionWait: .milliseconds(500))
        try await store.whileRunning {
            for _ in 0..<2 {
                let error = try await #require(throws: StoreError.self) { _ = try await store.profile(of: 1) }
                #expect(error.code == .unavailable)
                #expect(error.message.contains("cannot connect to PostgreSQL at 127.0.0.1:1/none"), "\(error.message)")
                #expect(error.message.contains("Connection refused"), "\(error.message)")
            }
        }
    }

    /// A pool whose every connection is busy for longer than the wait is slow, not down: the probe
    /// connects (or is refused only for want of a free slot), and the waiting call gets its answer
    /// when the connection frees up. `limitRole` runs the store as a role allowed one connection, so
    /// the probe is refused with "too many connections".
    @Test(arguments: [false, true]) func aPoolThatIsOnlyBusyIsNoOutage(limitRole: Bool) async throws {
        try await TestPostgres.withDatabase { url in
            try await PostgresStore(url: url, poolSize: 1).migrate()
            var storeURL = url
            if limitRole {
                storeURL.user = "mp_one_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                try await TestPostgres.execute(
                    url, "CREATE ROLE \(storeURL.user) LOGIN CONNECTION LIMIT 1",
                    "GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(storeURL.user)")
            }
            // The wait is also the probe's connect timeout: 1.5 s, as 250 ms and then 750 ms were
            // passed by a connect alone on a loaded machine (CI beside two compilers, load average 12).
            let store = PostgresStore(url: storeURL, poolSize: 1, connectionWait: .milliseconds(1500))
            try await store.whileRunning {
                // The pool's one connection sleeps for 6 s (four waits): the call below waits for it.
                async let sleeping: Void = TestPostgres.execute(store, "SELECT pg_sleep(6)")
                try await Task.sleep(for: .milliseconds(300))
                let profile = try await store.profile(of: AccountProfile.ownerID)
                #expect(profile?.id == AccountProfile.ownerID)
                try await sleeping
            }
            if limitRole {
                try await TestPostgres.execute(url, "DROP OWNED BY \(storeURL.user)", "DROP ROLE \(storeURL.user)")
            }
        }
    }

    /// The cluster script that scripts/with-postgres uses, for a server of this test's own.
    static let cluster = Repository.url("scripts/postgres-cluster")

    static func cluster(_ arguments: String...) throws -> String {
        let result = try BuiltBinary.run(executable: cluster, arguments)
        guard result.status == 0 else {
            throw TestFailure(
                "postgres-cluster \(arguments) exited \(result.status): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every answer the load got: when its request was sent, and its status (0: no answer at all).
    final class Answers: Sendable {
        let list = Locked<[(sent: ContinuousClock.Instant, status: Int)]>([])

        func record(sent: ContinuousClock.Instant, status: Int) { list.withLock { $0.append((sent, status)) } }

        /// Waits until a request sent at or after `since` is answered with `status`; false when none
        /// is within `limit`.
        func wait(for status: Int, sentSince since: ContinuousClock.Instant, limit: Duration) async throws -> Bool {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if list.withLock({ $0.contains { $0.sent >= since && $0.status == status } }) { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
    }

    /// PostgreSQL stopped and started again under a server that is answering summaries from six
    /// clients at once: the requests of the outage get 503 while it lasts, a write refused then is
    /// not recorded later, the server serves again once PostgreSQL is back, and the daily update made
    /// before counts once.
    @Test func aServerUnderLoadAnswers503WhilePostgresIsDownAndServesWhenItIsBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-outage-\(UUID().uuidString)")
        let url = try Self.cluster("init", folder.path)
        defer {
            _ = try? Self.cluster("stop", folder.path, "immediate")
            try? FileManager.default.removeItem(at: folder)
        }
        let server = try ServerProcess(
            [
                "serve", "--port", "0", "--allow-clock-header", "--bcrypt-cost", "4", "--db-wait", "1",
                "--database-url", url,
            ], keepLog: true)
        let address = server.address
        let signUp = try await TwoServerTests.send(
            "POST", "\(address)/api/auth/signup",
            ["email": "ada@example.com", "password": "correct horse", "timezone": "Europe/Istanbul"])
        let token = try #require(signUp.json["token"] as? String)
        let update = try await TwoServerTests.send(
            "POST", "\(address)/api/age/daily-update", token: token, ["metrics": ["steps": 8000]])
        #expect(update.status == 200)

        let answers = Answers()
        let stop = Locked(false)
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        while !stop.withLock({ $0 }) {
                            let sent = ContinuousClock.now
                            let status =
                                (try? await TwoServerTests.send("GET", "\(address)/api/stats/summary", token: token))?
                                .status ?? 0
                            answers.record(sent: sent, status: status)
                            try? await Task.sleep(for: .milliseconds(20))
                        }
                    }
                }
            }
        }
        let started = ContinuousClock.now
        #expect(try await answers.wait(for: 200, sentSince: started, limit: .seconds(30)), "the load never got a 200")

        // PostgreSQL stops (fast: it tells its clients and closes their connections).
        _ = try Self.cluster("stop", folder.path)
        let stopped = ContinuousClock.now
        // The requests on connections that PostgreSQL closed get 503 at once. Those sent later, once the
        // pool has no connection left, postgres-nio alone would keep waiting for a minute; the server
        // answers them 503 after --db-wait (1 s) and a refused probe.
        #expect(
            try await answers.wait(for: 503, sentSince: stopped + .milliseconds(500), limit: .seconds(30)),
            "no 503 while PostgreSQL was down")
        let refused = try await TwoServerTests.send(
            "POST", "\(address)/api/habits", token: token, ["name": "Written during the outage"])
        #expect(refused.status == 503)
        #expect(refused.json["code"] as? String == "database_unavailable")
        try await Task.sleep(for: .seconds(1))

        _ = try Self.cluster("start", folder.path)
        let restarted = ContinuousClock.now
        #expect(
            try await answers.wait(for: 200, sentSince: restarted, limit: .seconds(30)),
            "no 200 after PostgreSQL came back")
        stop.withLock { $0 = true }
        await load.value

        let all = answers.list.withLock { $0 }
        let statuses = Dictionary(grouping: all, by: \.status).mapValues(\.count)
        // Nothing but answers and 503s: no 500, no request left without an answer.
        #expect(Set(statuses.keys).isSubset(of: [200, 503]), "\(statuses)")
        #expect(all.contains { $0.sent >= stopped && $0.sent < restarted && $0.status == 503 })

        // What was stored before stands, once; what was refused during the outage was not stored.
        let summary = try await TwoServerTests.send("GET", "\(address)/api/stats/summary", token: token)
        #expect(summary.status == 200)
        #expect(summary.json["currentStreak"] as? Int == 1)
        #expect((summary.json["today"] as? [String: Any]) != nil)
        let again = try await TwoServerTests.send(
            "POST", "\(address)/api/age/daily-update", token: token, ["metrics": ["steps": 9000]])
        #expect(again.status == 409)
        let habits = try await TwoServerTests.send("POST", "\(address)/api/habits", token: token, ["name": "Walk"])
        #expect(habits.status == 201)
        let retried = try await TwoServerTests.send(
            "POST", "\(address)/api/habits", token: token, ["name": "Written during the outage"])
        #expect(retried.status == 201)

        #expect(server.stop() == 0)
        let log = server.logText()
        #expect(log.contains("PostgreSQL unavailable: cannot connect to PostgreSQL"), "\(log.suffix(2000))")
        #expect(log.contains("answers again"))
    }
}
