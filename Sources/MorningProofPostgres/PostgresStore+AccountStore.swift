import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Accounts of the server, as `AppDatabase`'s (same signatures, same answers), with one difference:
/// in PostgreSQL the owner (account 1) keeps its zone, day start and week start on its account row
/// like any other account, since there are no CLI settings there. Zone changes of every account
/// are rows of `zoneChange`.
extension PostgresStore: AccountStore {
    /// Creates an account; nil when the email is taken (in any case).
    public func createAccount(email: String, passwordHash: String, timeZone: String?, at instant: Date) async throws
        -> AccountProfile?
    {
        try await transaction(.statement) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO account (email, passwordHash, timeZone, createdAt)
                VALUES (\(email), \(passwordHash), \(timeZone), \(instant))
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: logger
            ).collect()
            return try rows.first.map {
                AccountProfile(id: try $0.decode(Int64.self), email: email, timeZone: timeZone)
            }
        }
    }

    /// The account id and password hash behind an email (in any case), for signing in.
    public func credentials(email: String) async throws -> (id: Int64, passwordHash: String)? {
        try await transaction(.statement) { connection in
            let rows = try await connection.query(
                """
                SELECT id, passwordHash FROM account
                WHERE lower(email COLLATE "C") = lower(\(email) COLLATE "C") AND passwordHash IS NOT NULL
                """, logger: logger
            ).collect()
            return try rows.first.map { row -> (id: Int64, passwordHash: String) in
                let (id, hash) = try row.decode((Int64, String).self)
                return (id, hash)
            }
        }
    }

    /// The account with this email (in any case).
    public func accountID(email: String) async throws -> Int64? {
        try await transaction(.statement) { connection in
            try await connection.query(
                #"SELECT id FROM account WHERE lower(email COLLATE "C") = lower(\#(email) COLLATE "C")"#,
                logger: logger
            ).collect().first?.decode(Int64.self)
        }
    }

    /// The account's profile: its email and the clock on its row.
    public func profile(of id: Int64) async throws -> AccountProfile? {
        try await transaction(.statement) { connection in try await Self.profile(connection, id: id, logger: logger) }
    }

    /// Changes what is given of an account's zone, day start and week start; a real change of the
    /// clock is recorded with its instant, so the days it touches count as travel days.
    /// The values must be valid (the service checks them). Nil when there is no such account.
    /// The row is locked first, so that simultaneous changes each record the change from the one before.
    public func changeProfile(
        of id: Int64, timeZone: String?, dayStart: Int?, weekStart: Int?, at instant: Date
    ) async throws -> AccountProfile? {
        try await transaction(.writing) { connection in
            guard let old = try await Self.profile(connection, id: id, locking: true, logger: logger) else {
                return nil
            }
            var new = old
            new.timeZone = timeZone ?? old.timeZone
            new.dayStart = dayStart ?? old.dayStart
            new.weekStart = weekStart ?? old.weekStart
            try await connection.query(
                """
                UPDATE account SET timeZone = \(new.timeZone), dayStart = \(new.dayStart), weekStart = \(new.weekStart)
                WHERE id = \(id)
                """, logger: logger)
            if let clock = new.clock, let change = ZoneChange.recorded(from: old.clock, to: clock, at: instant) {
                try await connection.query(
                    """
                    INSERT INTO zoneChange (accountId, at, fromZone, fromDayStart, toZone, toDayStart)
                    VALUES (\(id), \(change.at), \(change.from.zoneIdentifier), \(change.from.dayStart),
                            \(change.to.zoneIdentifier), \(change.to.dayStart))
                    """, logger: logger)
            }
            return new
        }
    }

    /// The columns `profile(from:)` reads, in its order.
    static let profileColumns = "account.id, account.email, account.timeZone, account.dayStart, account.weekStart"

    static func profile(from row: PostgresRow) throws -> AccountProfile {
        let (id, email, timeZone, dayStart, weekStart) = try row.decode((Int64, String?, String?, Int, Int).self)
        return AccountProfile(id: id, email: email, timeZone: timeZone, dayStart: dayStart, weekStart: weekStart)
    }

    static func profile(_ connection: PostgresConnection, id: Int64, locking: Bool = false, logger: Logger)
        async throws -> AccountProfile?
    {
        try await connection.query(
            "SELECT \(unescaped: profileColumns) FROM account WHERE id = \(id) \(unescaped: locking ? "FOR UPDATE" : "")",
            logger: logger
        ).collect().first.map(profile(from:))
    }

    /// Every recorded change of the account's zone, oldest first (unreadable rows left out, as SQLite's reader does).
    static func zoneChanges(_ connection: PostgresConnection, accountID: Int64, logger: Logger) async throws
        -> [ZoneChange]
    {
        try await connection.query(
            """
            SELECT at, fromZone, fromDayStart, toZone, toDayStart FROM zoneChange
            WHERE accountId = \(accountID) ORDER BY at, id
            """, logger: logger
        ).collect().compactMap { row in
            let (at, fromZone, fromDayStart, toZone, toDayStart) = try row.decode((Date, String, Int, String, Int).self)
            guard let from = DayClock(zoneIdentifier: fromZone, dayStart: fromDayStart),
                let to = DayClock(zoneIdentifier: toZone, dayStart: toDayStart)
            else { return nil }
            return ZoneChange(at: at, from: from, to: to)
        }
    }
}
