import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Accounts of the server. The owner (account 1) keeps its clock in the CLI's settings, so that
/// `config set timezone` and the server's profile are one and the same; every other account keeps
/// it on its row. Zone changes of both are rows of `zoneChange`, by account.
extension AppDatabase: AccountStore {
    /// Creates an account; nil when the email is taken (in any case).
    public func createAccount(email: String, passwordHash: String, timeZone: String?, at instant: Date) async throws
        -> AccountProfile?
    {
        try await asyncWrite { db in
            try db.execute(
                sql: """
                    INSERT INTO account (email, passwordHash, timeZone, createdAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (email) DO NOTHING
                    """,
                arguments: [email, passwordHash, timeZone, instant])
            guard db.changesCount == 1 else { return nil }
            return AccountProfile(id: db.lastInsertedRowID, email: email, timeZone: timeZone)
        }
    }

    /// The account id and password hash behind an email (in any case), for signing in.
    public func credentials(email: String) async throws -> (id: Int64, passwordHash: String)? {
        try await asyncRead { db in
            try Row.fetchOne(
                db, sql: "SELECT id, passwordHash FROM account WHERE email = ? AND passwordHash IS NOT NULL",
                arguments: [email]
            ).map { (id: $0["id"], passwordHash: $0["passwordHash"]) }
        }
    }

    /// The account with this email (in any case).
    public func accountID(email: String) async throws -> Int64? {
        try await asyncRead { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE email = ?", arguments: [email])
        }
    }

    public func profile(of id: Int64) async throws -> AccountProfile? {
        try await asyncRead { db in try Self.profile(db, id: id) }
    }

    static func profile(_ db: Database, id: Int64) throws -> AccountProfile? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM account WHERE id = ?"), arguments: [id])
        else {
            return nil
        }
        guard id == AccountProfile.ownerID else {
            return AccountProfile(
                id: id, email: row["email"], timeZone: row["timeZone"], dayStart: row["dayStart"],
                weekStart: row["weekStart"])
        }
        let stored = try storedSettings(db)
        return AccountProfile(
            id: id, email: row["email"], timeZone: stored[SettingKey.timeZone],
            dayStart: stored[SettingKey.dayStart].flatMap { parseClockTime($0) } ?? 0,
            weekStart: stored[SettingKey.weekStart].flatMap(Weekday.number(of:)) ?? 1)
    }

    /// Changes what is given of an account's zone, day start and week start; a real change of the
    /// clock is recorded with its instant, so the days it touches count as travel days.
    /// The values must be valid (the service checks them). Nil when there is no such account.
    public func changeProfile(
        of id: Int64, timeZone: String?, dayStart: Int?, weekStart: Int?, at instant: Date
    ) async throws -> AccountProfile? {
        try await asyncWrite { db in
            guard let old = try Self.profile(db, id: id) else { return nil }
            var new = old
            new.timeZone = timeZone ?? old.timeZone
            new.dayStart = dayStart ?? old.dayStart
            new.weekStart = weekStart ?? old.weekStart
            if id == AccountProfile.ownerID {
                try Self.changeOwnerProfile(db, from: old, to: new, at: instant)
            } else {
                try db.execute(
                    sql: "UPDATE account SET timeZone = ?, dayStart = ?, weekStart = ? WHERE id = ?",
                    arguments: [new.timeZone, new.dayStart, new.weekStart, id])
                if let clock = new.clock, let change = ZoneChange.recorded(from: old.clock, to: clock, at: instant) {
                    try Self.insert(change, accountID: id, db)
                }
            }
            return new
        }
    }

    /// The owner's profile is the CLI's settings, written as `config set` writes them, and only
    /// those that change.
    private static func changeOwnerProfile(
        _ db: Database, from old: AccountProfile, to new: AccountProfile, at instant: Date
    ) throws {
        if new.timeZone != old.timeZone || new.dayStart != old.dayStart {
            if let clock = new.clock {
                try changeOwnerClock(db, to: clock, at: instant, systemZone: ZoneNames.systemDefault())
            } else {
                try storeSetting(db, SettingKey.dayStart, formatClockTime(new.dayStart))
            }
        }
        if new.weekStart != old.weekStart {
            try storeSetting(db, SettingKey.weekStart, Weekday.names[new.weekStart - 1])
        }
    }
}
