import Foundation
import MorningProofPostgres
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two `morningproof-server` processes on one PostgreSQL database, as behind a load balancer.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .serialized)
struct TwoServerTests {
    /// A server process on the database at `url`.
    static func server(_ url: PostgresURL) throws -> ServerProcess {
        try ServerProcess([
            "serve", "--port", "0", "--allow-clock-header", "--bcrypt-cost", "4", "--database-url",
            "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)",
        ])
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()

    static let now = "2026-05-01T09:00:00+03:00"

    /// One request: its status and body as JSON.
    static func send(_ method: String, _ url: String, token: String? = nil, _ body: [String: Any]? = nil) async throws
        -> (status: Int, json: [String: Any])
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue(now, forHTTPHeaderField: "X-MorningProof-Now")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (data, response) = try await session.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    @Test func bothServeOneDatabaseAndOneDailyUpdateWinsPerAccount() async throws {
        try await TestPostgres.withDatabase { url in
            // The first server migrates the new database; the second finds it migrated.
            let first = try Self.server(url)
            var second = try Self.server(url)

            // Ten accounts, signed up on either server.
            var tokens: [String] = []
            for number in 0..<10 {
                let server = number % 2 == 0 ? first : second
                let signUp = try await Self.send(
                    "POST", "\(server.address)/api/auth/signup",
                    [
                        "email": "person\(number)@example.com", "password": "correct horse",
                        "timezone": "Europe/Istanbul",
                    ])
                #expect(signUp.status == 201)
                tokens.append(try #require(signUp.json["token"] as? String))
            }

            // 40 simultaneous updates per account, split across both servers: exactly one stored each.
            let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for (account, token) in tokens.enumerated() {
                    for attempt in 0..<40 {
                        let address = (attempt % 2 == 0 ? first : second).address
                        group.addTask {
                            let result = try await Self.send(
                                "POST", "\(address)/api/age/daily-update", token: token,
                                ["metrics": ["steps": 8000 + attempt], "score": 7])
                            return (account, result.status)
                        }
                    }
                }
                var statuses: [Int: [Int]] = [:]
                for try await (account, status) in group { statuses[account, default: []].append(status) }
                return statuses
            }
            for account in 0..<10 {
                let codes = statuses[account] ?? []
                #expect(codes.filter { $0 == 200 }.count == 1, "account \(account): \(codes)")
                #expect(codes.filter { $0 == 409 }.count == 39, "account \(account): \(codes)")
            }
            let summary = try await Self.send("GET", "\(second.address)/api/stats/summary", token: tokens[3])
            #expect(summary.json["currentStreak"] as? Int == 1)
            #expect(summary.json["day"] as? String == "2026-05-01")

            // A habit made on one server, its day marked on the other, read back on the first.
            let habit = try await Self.send("POST", "\(first.address)/api/habits", token: tokens[0], ["name": "Walk"])
            #expect(habit.status == 201)
            let id = try #require(habit.json["id"] as? Int)
            let marked = try await Self.send(
                "PUT", "\(second.address)/api/habits/\(id)/entries/today", token: tokens[0], ["status": "done"])
            #expect(marked.status == 201)
            let read = try await Self.send("GET", "\(first.address)/api/habits/\(id)", token: tokens[0])
            #expect(read.json["state"] as? String == "done")
            #expect(read.json["currentStreak"] as? Int == 1)
            // Another account does not see it, on either server.
            #expect(try await Self.send("GET", "\(second.address)/api/habits/\(id)", token: tokens[1]).status == 404)

            // A restarted server loses nothing.
            #expect(second.stop() == 0)
            second = try Self.server(url)
            let again = try await Self.send("GET", "\(second.address)/api/habits/\(id)", token: tokens[0])
            #expect(again.json["state"] as? String == "done")
            let summaryAgain = try await Self.send("GET", "\(second.address)/api/stats/summary", token: tokens[3])
            #expect(summaryAgain.json["currentStreak"] as? Int == 1)
            #expect(first.stop() == 0)
            #expect(second.stop() == 0)
        }
    }

    /// The sign-in limit counts failures made through any server: five wrong passwords split
    /// across two servers lock the email on both, as five on one server do.
    @Test func failedSignInsAreCountedAcrossServers() async throws {
        try await TestPostgres.withDatabase { url in
            let first = try Self.server(url)
            let second = try Self.server(url)
            let signUp = try await Self.send(
                "POST", "\(first.address)/api/auth/signup", ["email": "ada@example.com", "password": "correct horse"])
            #expect(signUp.status == 201)
            for attempt in 0..<5 {
                let server = attempt % 2 == 0 ? first : second
                let wrong = try await Self.send(
                    "POST", "\(server.address)/api/auth/login", ["email": "ada@example.com", "password": "wrong horse"])
                #expect(wrong.status == 401)
            }
            for server in [first, second] {
                let right = try await Self.send(
                    "POST", "\(server.address)/api/auth/login",
                    ["email": "ada@example.com", "password": "correct horse"])
                #expect(right.status == 429)
                #expect(right.json["code"] as? String == "too_many_attempts")
            }
            #expect(first.stop() == 0)
            #expect(second.stop() == 0)
        }
    }
}
