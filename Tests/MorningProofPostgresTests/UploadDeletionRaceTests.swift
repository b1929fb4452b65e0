import Foundation
import MorningProofPostgres
import MorningProofTestSupport
import Testing

/// attack43's last 503: on PostgreSQL, a metrics upload that raised a stored running total (holding
/// its rows) and then inserted a row with a key to the account (a day's mark) waited for the account's
/// deletion, which held the account's row and waited for those totals: PostgreSQL failed the upload
/// as a deadlock, and it answered 503 "try again" for an account that was gone. The built server,
/// rounds of an upload and `DELETE /api/auth/account` at once: the upload answers what a write gets
/// for a deleted account (404), or 200 when it came first; never 503. A trigger the test adds makes the
/// upload wait before its mark, so that the deletion comes in between in every round, and makes the
/// upload the side that finds the deadlock (its deadlock_timeout shorter than the deletion's).
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .serialized)
struct UploadDeletionRaceTests {
    /// Health Auto Export's running total of steps on the test's day, at 07:00 (a bucket raised by a resend).
    static func steps(_ count: Int) -> [String: Any] {
        let point: [String: Any] = ["qty": count, "date": "2026-05-01 07:00:00 +0300"]
        return ["data": ["metrics": [["name": "step_count", "units": "count", "data": [point]]]]]
    }

    static let slowMark = [
        """
        CREATE FUNCTION test_slow_mark() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM set_config('deadlock_timeout', '100ms', true);
            PERFORM pg_sleep(0.8);
            RETURN NEW;
        END $$
        """,
        "CREATE TRIGGER test_slow_mark BEFORE INSERT ON metricDayMark FOR EACH ROW EXECUTE FUNCTION test_slow_mark()",
    ]

    @Test func anUploadRacingItsAccountsDeletionIsNeverUnavailable() async throws {
        try await TestPostgres.withDatabase { url in
            let server = try TwoServerTests.server(url)
            defer { _ = server.stop() }
            try await TestPostgres.execute(url, Self.slowMark[0], Self.slowMark[1])
            var answers: [String] = []
            for round in 0..<3 {
                let email = "racer\(round)@example.com"
                let signUp = try await TwoServerTests.send(
                    "POST", "\(server.address)/api/auth/signup",
                    ["email": email, "password": "correct horse", "timezone": "Europe/Istanbul"])
                let token = try #require(signUp.json["token"] as? String, "\(signUp.json)")
                let me = try await TwoServerTests.send("GET", "\(server.address)/api/auth/me", token: token)
                let id = try #require(me.json["id"] as? Int)
                let walk = try await TwoServerTests.send(
                    "POST", "\(server.address)/api/habits", token: token,
                    ["name": "Walk", "metric": "steps", "atLeast": 100])
                #expect(walk.status == 201, "\(walk.json)")
                let first = try await TwoServerTests.send(
                    "POST", "\(server.address)/api/metrics", token: token, Self.steps(50))
                #expect(first.status == 200, "\(first.json)")

                let address = server.address
                async let upload = TwoServerTests.send("POST", "\(address)/api/metrics", token: token, Self.steps(500))
                try await Task.sleep(for: .milliseconds(300))
                let deletion = try await TwoServerTests.send(
                    "DELETE", "\(server.address)/api/auth/account", token: token, ["password": "correct horse"])
                let uploaded = try await upload
                answers.append(
                    "round \(round): upload \(uploaded.status) \(uploaded.json["code"] ?? ""), delete \(deletion.status)"
                )
                #expect(deletion.status == 204, "\(deletion.json)")
                #expect(
                    [200, 404].contains(uploaded.status),
                    "round \(round): the upload answered \(uploaded.status) \(uploaded.json)")
                let left = try await Self.rowsOf(account: id, url)
                #expect(left.isEmpty, "round \(round): rows of the deleted account left: \(left)")
            }
            print("UploadDeletionRaceTests: \(answers.joined(separator: "; "))")
        }
    }

    /// The tables with rows whose `accountId` is `account`, and how many.
    static func rowsOf(account: Int, _ url: PostgresURL) async throws -> [String: Int] {
        let tables = try await TestPostgres.strings(
            url,
            """
            SELECT table_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND column_name = 'accountid'
            """)
        var left: [String: Int] = [:]
        for table in tables {
            let count = try await TestPostgres.strings(
                url, "SELECT count(*)::text FROM \"\(table)\" WHERE accountId = \(account)")
            if let count = count.first.flatMap(Int.init), count > 0 { left[table] = count }
        }
        return left
    }
}
