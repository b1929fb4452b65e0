import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofStore
import Testing

/// The engines a test runs on: SQLite always, PostgreSQL inside scripts/with-postgres.
enum Engine: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var available: [Engine] { TestPostgres.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    var testDescription: String { rawValue }

    /// A new, empty store of this engine for the length of `body`.
    func withStore<T: Sendable>(poolSize: Int = 4, _ body: (any AccountStore) async throws -> T)
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
        _ store: any AccountStore, _ email: String, zone: String? = "Europe/Istanbul"
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
