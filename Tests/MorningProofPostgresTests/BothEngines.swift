import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

extension Engine {
    /// A new store with an account for each of `emails` (with a zone), and `body` run with the store
    /// as each account sees it, in that order.
    func withAccounts<T: Sendable>(_ emails: [String], _ body: ([any AccountData]) async throws -> T) async throws -> T {
        try await withStore { store in
            var accounts: [any AccountData] = []
            for email in emails { accounts.append(store.scoped(to: try await Fixture.account(store, email).id)) }
            return try await body(accounts)
        }
    }
}

/// A fixed moment and helpers shared by the tests of both engines.
enum Fixture {
    /// 2026-05-01 12:00:00 UTC, whole seconds so that both engines keep it exactly.
    static let noon = Date(timeIntervalSince1970: 1_777_636_800)

    static func hour(_ hours: Double) -> Date { noon.addingTimeInterval(hours * 3600) }

    /// The day of `noon` in Istanbul.
    static let day = LocalDay("2026-05-01")!

    static func habit(_ name: String, kind: HabitKind = .manual, created: String = "2026-05-01") -> Habit {
        Habit(name: name, kind: kind, createdDay: LocalDay(created)!, createdAt: noon)
    }

    static func entry(
        _ habitID: Int64, _ day: String, _ status: EntryStatus = .done, source: EntrySource = .manual, at: Date = noon
    ) -> Entry {
        Entry(
            habitID: habitID, day: LocalDay(day)!, status: status, source: source, recordedAt: at,
            zone: "Europe/Istanbul")
    }

    /// A made bed's evidence with the perceptual hash `hash`, and an SHA-256 of "a"s.
    static func evidence(hash: Int64) -> PhotoEvidence {
        PhotoEvidence(
            sha256: String(repeating: "a", count: 64), perceptualHash: hash, captureTime: "2026-05-01T07:10:00+03:00",
            verdict: "made", confidence: 0.91, features: #"{"edges":0.25}"#, recordedAt: noon)
    }

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
