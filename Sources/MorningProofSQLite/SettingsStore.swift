import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: SettingsStore {
    /// One setting's stored value (of the account), or nil.
    public func setting(_ key: String) async throws -> String? {
        try await asyncRead { db in try Self.storedSetting(db, key, accountID: accountID) }
    }

    static func storedSetting(_ db: Database, _ key: String, accountID: Int64) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT value FROM setting WHERE accountId = ? AND key = ?", arguments: [accountID, key])
    }

    /// Every stored setting of the account, by key.
    public func settings() async throws -> [String: String] {
        try await asyncRead { db in try Self.storedSettings(db, accountID: accountID) }
    }

    static func storedSettings(_ db: Database, accountID: Int64 = AccountProfile.ownerID) throws -> [String: String] {
        try Row.fetchAll(db, sql: "SELECT key, value FROM setting WHERE accountId = ?", arguments: [accountID])
            .reduce(into: [:]) { $0[$1["key"]] = $1["value"] }
    }

    /// Stores a setting of the account (nil removes it).
    public func setSetting(_ key: String, to value: String?) async throws {
        try await asyncWrite { db in try Self.storeSetting(db, key, value, accountID: accountID) }
    }

    static func storeSetting(
        _ db: Database, _ key: String, _ value: String?, accountID: Int64 = AccountProfile.ownerID
    ) throws {
        if let value {
            try db.execute(
                sql: """
                    INSERT INTO setting (accountId, key, value) VALUES (?, ?, ?)
                    ON CONFLICT(accountId, key) DO UPDATE SET value = excluded.value
                    """,
                arguments: [accountID, key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE accountId = ? AND key = ?", arguments: [accountID, key])
        }
    }

    /// The clock in force for the account. The owner's: the stored zone (else the system's) and day
    /// start. Another account's: its profile's, and not found while it has no zone yet.
    public func clock(systemZone: @autoclosure () -> String = ZoneNames.systemDefault()) async throws -> DayClock {
        guard accountID == AccountProfile.ownerID else {
            guard let clock = try await asyncRead({ db in try Self.profile(db, id: accountID) })?.clock else {
                throw StoreError.noClockYet
            }
            return clock
        }
        let stored = try await settings()
        return Self.clock(from: stored, systemZone: systemZone())
    }

    /// The stored zone, else the system's (looked up only when needed), else UTC.
    static func clock(from stored: [String: String], systemZone: @autoclosure () -> String) -> DayClock {
        let dayStart = stored[SettingKey.dayStart].flatMap { parseClockTime($0) } ?? 0
        return stored[SettingKey.timeZone].flatMap { DayClock(zoneIdentifier: $0, dayStart: dayStart) }
            ?? DayClock(zoneIdentifier: systemZone(), dayStart: dayStart)
            ?? DayClock(zoneIdentifier: "UTC", dayStart: dayStart)!
    }

    /// The first day of the account's calendar week, 1 (Monday) to 7 (Sunday).
    public func weekStart() async throws -> Int {
        guard accountID == AccountProfile.ownerID else {
            return try await asyncRead { db in try Self.profile(db, id: accountID) }?.weekStart ?? 1
        }
        return try await setting(SettingKey.weekStart).flatMap(Weekday.number(of:)) ?? 1
    }
}
