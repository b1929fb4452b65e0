import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofStore
import Testing

/// What the server's account, token and daily-update routes need of a store: the methods that
/// `AppDatabase` and `PostgresStore` both have, so that one test runs against both engines.
protocol AccountStoreUnderTest: Sendable {
    func createAccount(email: String, passwordHash: String, timeZone: String?, at instant: Date) async throws
        -> AccountProfile?
    func credentials(email: String) async throws -> (id: Int64, passwordHash: String)?
    func accountID(email: String) async throws -> Int64?
    func profile(of id: Int64) async throws -> AccountProfile?
    func changeProfile(of id: Int64, timeZone: String?, dayStart: Int?, weekStart: Int?, at instant: Date)
        async throws -> AccountProfile?
    func insertToken(accountID: Int64, name: String, tokenHash: String, createdAt: Date, expiresAt: Date?)
        async throws -> APIToken
    func account(tokenHash: String, at now: Date) async throws -> AccountProfile?
    func tokens(accountID: Int64?) async throws -> [APIToken]
    func revokeToken(id: Int64, accountID: Int64?) async throws -> Bool
    func revokeToken(hash: String) async throws -> Bool
    func insertDailyUpdate(
        tokenHash: String, at now: Date, _ make: @escaping @Sendable (AccountProfile) throws -> DailyUpdate
    ) async throws -> (update: DailyUpdate, inserted: Bool)?
    func dailyUpdateHistory(
        tokenHash: String, at now: Date, day: @escaping @Sendable (AccountProfile) -> LocalDay?
    ) async throws -> (account: AccountProfile, history: DailyUpdateHistory)?
}

extension AppDatabase: AccountStoreUnderTest {}
extension PostgresStore: AccountStoreUnderTest {}

/// The engines a test runs on: SQLite always, PostgreSQL inside scripts/with-postgres.
enum Engine: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var available: [Engine] { TestPostgres.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    var testDescription: String { rawValue }

    /// A new, empty store of this engine for the length of `body`.
    func withStore<T: Sendable>(poolSize: Int = 4, _ body: (any AccountStoreUnderTest) async throws -> T)
        async throws -> T
    {
        switch self {
        case .sqlite: try await body(try AppDatabase.inMemory())
        case .postgres: try await TestPostgres.withStore(poolSize: poolSize) { try await body($0) }
        }
    }
}

/// A fixed moment and helpers shared by the tests of both engines.
enum Fixture {
    /// 2026-05-01 12:00:00 UTC, whole seconds so that both engines keep it exactly.
    static let noon = Date(timeIntervalSince1970: 1_777_636_800)

    static func hour(_ hours: Double) -> Date { noon.addingTimeInterval(hours * 3600) }

    /// An account with a token `token-EMAIL`.
    static func account(
        _ store: any AccountStoreUnderTest, _ email: String, zone: String? = "Europe/Istanbul"
    ) async throws -> AccountProfile {
        let account = try #require(
            try await store.createAccount(email: email, passwordHash: "hash-\(email)", timeZone: zone, at: noon))
        _ = try await store.insertToken(
            accountID: account.id, name: "phone", tokenHash: "token-\(email)", createdAt: noon, expiresAt: nil)
        return account
    }

    static func update(_ day: String, score: Double? = 7.5, zone: String = "Europe/Istanbul") -> DailyUpdate {
        DailyUpdate(
            day: LocalDay(day)!, score: score,
            metrics: ["steps": .number(8412), "mood": .string("calm"), "sleep": .object(["hours": .number(7.25)])],
            recordedAt: noon, zone: zone)
    }
}
