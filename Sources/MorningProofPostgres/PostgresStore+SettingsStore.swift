import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The account's clock and settings, as `AppDatabase`'s, with one difference: every
/// account, the owner (1) included, keeps its zone, day start and week start on its account row
/// (`changeProfile`), since no CLI keeps settings here.
extension PostgresStore: SettingsStore {
    /// The clock on the account's row; not found while it has no zone. `systemZone` is not used:
    /// only SQLite's owner falls back on the system's zone.
    public func clock(systemZone: @autoclosure () -> String) async throws -> DayClock {
        guard let clock = try await profile(of: accountID)?.clock else {
            throw StoreError.noClockYet
        }
        return clock
    }

    /// The clock on `profile`, the account's row as a token check read it (no read of its own); not
    /// found while it has no zone. Another account's profile is not taken: the row is read.
    public func clock(signedIn profile: AccountProfile, systemZone: @autoclosure () -> String) async throws
        -> DayClock
    {
        guard profile.id == accountID else { return try await clock(systemZone: systemZone()) }
        guard let clock = profile.clock else { throw StoreError.noClockYet }
        return clock
    }

    /// The first day of the account's calendar week, 1 (Monday) to 7 (Sunday), from its row.
    public func weekStart() async throws -> Int {
        try await profile(of: accountID)?.weekStart ?? 1
    }

    /// Every stored setting of the account, by key.
    public func settings() async throws -> [String: String] {
        try await transaction(.statement) { connection in
            try await connection.query(
                "SELECT key, value FROM setting WHERE accountId = \(accountID)", logger: logger
            ).collect().reduce(into: [:]) { settings, row in
                let (key, value) = try row.decode((String, String).self)
                settings[key] = value
            }
        }
    }

    /// One setting's stored value (of the account), or nil.
    public func setting(_ key: String) async throws -> String? {
        try await transaction(.statement) { connection in
            try await Self.setting(key, of: accountID, connection, logger: logger)
        }
    }

    /// One setting's stored value of account `accountID`, or nil, read on `connection`.
    static func setting(_ key: String, of accountID: Int64, _ connection: PostgresConnection, logger: Logger)
        async throws -> String?
    {
        try await connection.query(
            "SELECT value FROM setting WHERE accountId = \(accountID) AND key = \(key)", logger: logger
        ).collect().first?.decode(String.self)
    }

    /// Stores a setting of the account (nil removes it).
    public func setSetting(_ key: String, to value: String?) async throws {
        try await transaction(.statement) { connection in
            if let value {
                try await connection.query(
                    """
                    INSERT INTO setting (accountId, key, value) VALUES (\(accountID), \(key), \(value))
                    ON CONFLICT (accountId, key) DO UPDATE SET value = excluded.value
                    """, logger: logger)
            } else {
                try await connection.query(
                    "DELETE FROM setting WHERE accountId = \(accountID) AND key = \(key)", logger: logger)
            }
        }
    }
}
