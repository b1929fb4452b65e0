import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
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

    /// Changes the zone or the day start, recording the change with its instant so that the
    /// days it touches count as travel days.
    /// Only the owner's clock is a setting; another account's is its profile (`changeProfile`).
    public func changeClock(to new: DayClock, at instant: Date, systemZone: String = ZoneNames.systemDefault()) async throws {
        guard accountID == AccountProfile.ownerID else {
            throw StoreError(
                .invalid, value: String(accountID), "an account's clock is its profile; change it with changeProfile")
        }
        try await asyncWrite { db in try Self.changeOwnerClock(db, to: new, at: instant, systemZone: systemZone) }
    }

    /// The owner's clock is the `timezone` and `day-start` settings.
    static func changeOwnerClock(_ db: Database, to new: DayClock, at instant: Date, systemZone: String) throws {
        let stored = try storedSettings(db)
        let old = Self.clock(from: stored, systemZone: systemZone)
        try Self.storeSetting(db, SettingKey.timeZone, new.zoneIdentifier)
        try Self.storeSetting(db, SettingKey.dayStart, formatClockTime(new.dayStart))
        let before = stored[SettingKey.timeZone] == nil ? nil : old
        if let change = ZoneChange.recorded(from: before, to: new, at: instant) {
            try insert(change, accountID: AccountProfile.ownerID, db)
        }
    }

    static func insert(_ change: ZoneChange, accountID: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO zoneChange (accountId, at, fromZone, fromDayStart, toZone, toDayStart)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                accountID, change.at, change.from.zoneIdentifier, change.from.dayStart, change.to.zoneIdentifier,
                change.to.dayStart,
            ])
    }

    /// Every recorded change of the account's zone, oldest first.
    public func zoneChanges() throws -> [ZoneChange] {
        try read { db in try Self.zoneChanges(db, accountID: accountID) }
    }

    static func zoneChanges(_ db: Database, accountID: Int64) throws -> [ZoneChange] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM zoneChange WHERE accountId = ? ORDER BY at, id", arguments: [accountID]
        )
        .compactMap { row in
            guard let from = DayClock(zoneIdentifier: row["fromZone"], dayStart: row["fromDayStart"]),
                let to = DayClock(zoneIdentifier: row["toZone"], dayStart: row["toDayStart"])
            else { return nil }
            return ZoneChange(at: row["at"], from: from, to: to)
        }
    }

    /// Days on which the account's zone changed (in the old zone and in the new one).
    public func travelDays() throws -> Set<LocalDay> {
        try zoneChanges().travelDays
    }
}

extension AppDatabase: SettingsStore {}

extension AppDatabase: OwnerClockStore {}
