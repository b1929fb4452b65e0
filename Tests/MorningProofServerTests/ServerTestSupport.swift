import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofServer
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// A server on a new, empty database of one engine, with the clock header allowed, cheap bcrypt,
/// a real-time clock the test can move, and the log lines it wrote. The behaviour suite takes
/// `Engine.available` as its arguments, so that each test runs once on SQLite and once on
/// PostgreSQL: the server must answer alike on both.
struct TestServer: Sendable {
    let engine: Engine
    /// The database: accounts and tokens, and the owner's habits (`scoped(to:)` for another account's).
    let store: any AccountStore & PerAccountStore
    let realNow = Locked(Date(timeIntervalSince1970: 1_790_000_000))  // 2026-09-21
    let logs = Locked([String]())
    var configuration = TestServer.configuration

    /// The clock header allowed, cheap bcrypt, and connection timeouts of minutes: in the full suite a
    /// `.live` test's client may wait minutes for a thread between connecting and sending, and the
    /// timeouts are tested on their own (`HostileConnectionTests`, `AdmissionTests`).
    static var configuration: ServerConfiguration {
        var configuration = ServerConfiguration(allowClockHeader: true, bcryptCost: 4)
        configuration.connections.headTimeout = .seconds(900)
        configuration.connections.idleTimeout = .seconds(900)
        configuration.connections.bodyTimeout = .seconds(900)
        configuration.connections.minimumBodyRate = 0
        return configuration
    }

    /// Runs `body` with a server on a new database of `engine`, gone when `body` ends. SQLite's is
    /// in memory, or in a file (a pool of connections, as the server opens it) when `file` is true.
    static func with<T: Sendable>(_ engine: Engine, file: Bool = false, _ body: (TestServer) async throws -> T)
        async throws -> T
    {
        try await engine.withStore(file: file) { store in try await body(TestServer(engine: engine, store: store)) }
    }

    /// Runs `body` with the API of a server on a new database of `engine`.
    static func run<T: Sendable>(on engine: Engine, _ body: @Sendable (TestAPI) async throws -> T) async throws -> T {
        try await with(engine) { try await $0.run(.router, body) }
    }

    /// Runs `body` against the app in process (`.router`), or listening on loopback (`.live`, for
    /// bodies that must really stream).
    func run<T: Sendable>(_ setup: TestingSetup = .router, _ body: @Sendable (TestAPI) async throws -> T)
        async throws -> T
    {
        let logs = self.logs
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: logs) }
        let realNow = self.realNow
        let store = self.store
        // As the server command: failed sign-ins in memory on SQLite, in the shared database on PostgreSQL.
        let app = MorningProofServer.application(
            accounts: store, habits: { store.scoped(to: $0) },
            signInFailures: (store as? PostgresStore) ?? MemorySignInFailures(),
            configuration: configuration,
            logger: logger,
            realNow: { realNow.withLock { $0 } })
        return try await app.test(setup) { client in try await body(TestAPI(client: client)) }
    }

    /// What `body` reads or writes through the habit store of account `id` (the owner's unless said).
    func habits<T>(of id: Int64 = AccountProfile.ownerID, _ body: (any AccountData) async throws -> T) async throws -> T
    {
        let scoped = store.scoped(to: id)
        return try await body(scoped)
    }

    /// Stores a daily total of the owner's from a phone's export: in SQLite as `metrics import`
    /// does, in PostgreSQL as `db copy` moves it there.
    func storeOwnerExportTotal(_ total: MetricAggregateRow) async throws {
        guard let metrics = store as? any MetricImportStore else {
            throw TestFailure("no way to store metrics in \(type(of: store))")
        }
        var batch = MetricBatch()
        batch.exportAggregates = [total]
        _ = try await metrics.storeMetrics(batch, file: nil)
    }

    /// The recorded zone changes of the account that `token` signs in, oldest first.
    func zoneChanges(of token: String) async throws -> [ZoneChange] {
        let now = realNow.withLock { $0 }
        let found = try await store.dailyUpdateHistory(tokenHash: TokenSecret.hash(token), at: now) { _ in nil }
        return try #require(found, "no account signs in with that token").history.zoneChanges
    }

    func advanceRealTime(by seconds: TimeInterval) {
        realNow.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// A token for the owner account, as `morningproof-server token create` makes one, after
    /// setting the owner's zone when `zone` is given. Without one the owner has none on
    /// PostgreSQL, and SQLite's owner (the CLI's person) falls back on the system's zone.
    func ownerToken(zone: String? = nil) async throws -> String {
        if let zone {
            _ = try await store.changeProfile(
                of: AccountProfile.ownerID, timeZone: zone, dayStart: nil, weekStart: nil, at: Date())
        }
        return try await TokenService(database: store).createToken(email: nil, name: "tests", now: Date()).token
    }
}

/// One response, with its body as bytes, as text and as JSON.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let bytes: [UInt8]

    var body: String { String(decoding: bytes, as: UTF8.self) }

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
            Reply(status: response.status, headers: response.headers, bytes: Array(buffer: response.body))
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
