import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MorningProofCore
import MorningProofServer
import MorningProofService
import MorningProofStore

/// A server on a fresh database, with the clock header allowed, cheap bcrypt, a real-time clock
/// the test can move, and the log lines it wrote.
struct TestServer {
    let database: AppDatabase
    let realNow = Locked(Date(timeIntervalSince1970: 1_790_000_000))  // 2026-09-21
    let logs = Locked([String]())
    var configuration = ServerConfiguration(allowClockHeader: true, bcryptCost: 4)

    /// In memory, or in a file (a pool of connections, as the server runs) when `file` is true.
    init(file: Bool = false) throws {
        if file {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("morningproof-server-tests-\(UUID().uuidString)/test.sqlite").path
            database = try AppDatabase.openShared(path: path, readers: 4)
        } else {
            database = try AppDatabase.inMemory()
        }
    }

    func run<T: Sendable>(_ body: @Sendable (TestAPI) async throws -> T) async throws -> T {
        let logs = self.logs
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: logs) }
        let realNow = self.realNow
        let app = MorningProofServer.application(
            database: database, configuration: configuration, logger: logger,
            realNow: { realNow.withLock { $0 } })
        return try await app.test(.router) { client in try await body(TestAPI(client: client)) }
    }

    func advanceRealTime(by seconds: TimeInterval) {
        realNow.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// A token for the owner account, as `morningproof-server token create` makes one.
    func ownerToken() async throws -> String {
        try await TokenService(database: database).createToken(email: nil, name: "tests", now: Date()).token
    }
}

/// One response, with its body as text and as JSON.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    /// The error body's `code`, checking that the body is exactly `{"error", "code"}`.
    var errorCode: String? {
        guard Set(json.keys) == ["error", "code"], json["error"] is String else { return nil }
        return json["code"] as? String
    }

    var errorMessage: String { json["error"] as? String ?? "" }
}

/// Requests as a client sends them.
struct TestAPI: Sendable {
    let client: any TestClientProtocol

    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, at now: String? = nil,
        json: String? = nil, headers extra: HTTPFields = [:]
    ) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let now { headers[HTTPField.Name("X-MorningProof-Now")!] = now }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            Reply(status: response.status, headers: response.headers, body: String(buffer: response.body))
        }
    }

    /// Signs up and returns the token.
    func signUp(_ email: String, timezone: String? = nil) async throws -> String {
        let zone = timezone.map { ", \"timezone\": \"\($0)\"" } ?? ""
        let reply = try await send(
            .post, "/api/auth/signup", json: "{\"email\": \"\(email)\", \"password\": \"correct horse\"\(zone)}")
        guard reply.status == .created, let token = reply.json["token"] as? String else {
            throw TestFailure("sign-up of \(email) gave \(reply.status): \(reply.body)")
        }
        return token
    }

    /// Posts a daily update at `now`.
    func dailyUpdate(_ token: String, at now: String, json: String = "{\"metrics\": {\"mood\": 4}}") async throws
        -> Reply
    {
        try await send(.post, "/api/age/daily-update", token: token, at: now, json: json)
    }

    func summary(_ token: String, at now: String) async throws -> Reply {
        try await send(.get, "/api/stats/summary", token: token, at: now)
    }

    func setZone(_ token: String, _ zone: String, at now: String, dayStart: String? = nil) async throws {
        let start = dayStart.map { ", \"dayStart\": \"\($0)\"" } ?? ""
        let reply = try await send(
            .patch, "/api/auth/profile", token: token, at: now, json: "{\"timezone\": \"\(zone)\"\(start)}")
        guard reply.status == .ok else { throw TestFailure("profile change gave \(reply.status): \(reply.body)") }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Keeps every log line a server writes.
struct CapturingLogHandler: LogHandler {
    let lines: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
        function: String, line: UInt
    ) {
        lines.withLock { $0.append("\(level) \(message)") }
    }
}
