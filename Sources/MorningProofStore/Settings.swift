import Foundation
import GRDB
import MorningProofCore

/// Names of the settings MorningProof itself reads; other modules may store their own keys.
public enum SettingKey {
    public static let timeZone = "timezone"
    public static let dayStart = "day-start"
    public static let weekStart = "week-start"
}

extension AppDatabase {
    /// One setting's stored value, or nil.
    public func setting(_ key: String) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Every stored setting, by key.
    public func settings() throws -> [String: String] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM setting").reduce(into: [:]) {
                $0[$1["key"]] = $1["value"]
            }
        }
    }

    /// Stores a setting (nil removes it).
    public func setSetting(_ key: String, to value: String?) throws {
        try write { db in try Self.storeSetting(db, key, value) }
    }

    static func storeSetting(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.execute(
                sql:
                    "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
        }
    }

    /// The clock in force: the stored zone (else the system's) and day start.
    public func clock(systemZone: @autoclosure () -> String = ZoneNames.systemDefault()) throws -> DayClock {
        let stored = try settings()
        return Self.clock(from: stored, systemZone: systemZone())
    }

    /// The stored zone, else the system's (looked up only when needed), else UTC.
    static func clock(from stored: [String: String], systemZone: @autoclosure () -> String) -> DayClock {
        let dayStart = stored[SettingKey.dayStart].flatMap { parseClockTime($0) } ?? 0
        return stored[SettingKey.timeZone].flatMap { DayClock(zoneIdentifier: $0, dayStart: dayStart) }
            ?? DayClock(zoneIdentifier: systemZone(), dayStart: dayStart)
            ?? DayClock(zoneIdentifier: "UTC", dayStart: dayStart)!
    }

    /// The first day of a calendar week, 1 (Monday) to 7 (Sunday).
    public func weekStart() throws -> Int {
        try setting(SettingKey.weekStart).flatMap(Weekday.number(of:)) ?? 1
    }

    /// Changes the zone or the day start, recording the change with its instant so that the
    /// days it touches count as travel days.
    public func changeClock(to new: DayClock, at instant: Date, systemZone: String = ZoneNames.systemDefault()) throws {
        try write { db in
            let stored = try Row.fetchAll(db, sql: "SELECT key, value FROM setting")
                .reduce(into: [String: String]()) { $0[$1["key"]] = $1["value"] }
            let old = Self.clock(from: stored, systemZone: systemZone)
            try Self.storeSetting(db, SettingKey.timeZone, new.zoneIdentifier)
            try Self.storeSetting(db, SettingKey.dayStart, formatClockTime(new.dayStart))
            // The first zone ever set is a choice, not a trip.
            guard old != new, stored[SettingKey.timeZone] != nil else { return }
            try db.execute(
                sql: """
                    INSERT INTO zoneChange (at, fromZone, fromDayStart, toZone, toDayStart)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [instant, old.zoneIdentifier, old.dayStart, new.zoneIdentifier, new.dayStart])
        }
    }

    /// Every recorded change of zone, oldest first.
    public func zoneChanges() throws -> [ZoneChange] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM zoneChange ORDER BY at, id").compactMap { row in
                guard let from = DayClock(zoneIdentifier: row["fromZone"], dayStart: row["fromDayStart"]),
                    let to = DayClock(zoneIdentifier: row["toZone"], dayStart: row["toDayStart"])
                else { return nil }
                return ZoneChange(at: row["at"], from: from, to: to)
            }
        }
    }

    /// Days on which the zone changed (in the old zone and in the new one).
    public func travelDays() throws -> Set<LocalDay> {
        try zoneChanges().filter { $0.from.zoneIdentifier != $0.to.zoneIdentifier }
            .reduce(into: []) { $0.formUnion($1.travelDays) }
    }
}
