import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: DailyUpdateStore {
    /// Stores the update `make` returns for the account the token signs in, unless its day has
    /// one already (`inserted` false then). The token check, `make` and the insert share one
    /// write transaction; the UNIQUE (account, day) key decides, so of simultaneous requests for
    /// one day exactly one is stored. Nil for a bad token.
    public func insertDailyUpdate(
        tokenHash: String, at now: Date, scopes: Set<TokenScope>,
        _ make: @escaping @Sendable (AccountProfile) throws -> DailyUpdate
    ) async throws -> (update: DailyUpdate, inserted: Bool)? {
        try await asTokenHolder(tokenHash, at: now, scopes: scopes, writing: true) { db, account in
            let update = try make(account)
            try db.execute(
                sql: """
                    INSERT INTO daily_update (accountId, day, score, metrics, recordedAt, zone) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (accountId, day) DO NOTHING
                    """,
                arguments: [
                    account.id, update.day.description, update.score, JSONValue.object(update.metrics).text,
                    update.recordedAt, update.zone,
                ])
            return (update, db.changesCount == 1)
        }
    }

    /// The account a token signs in, with its days with an update, its zone changes and the update
    /// of the day `day` picks for the account (today, from its clock), from one snapshot. Nil for a
    /// bad token.
    public func dailyUpdateHistory(
        tokenHash: String, at now: Date, scopes: Set<TokenScope>, day: @escaping @Sendable (AccountProfile) -> LocalDay?
    ) async throws -> (account: AccountProfile, history: DailyUpdateHistory)? {
        try await asTokenHolder(tokenHash, at: now, scopes: scopes, writing: false) { db, account in
            // Day numbers straight from SQLite: parsing a year of `YYYY-MM-DD` strings in Swift
            // took half of a summary's time.
            let days = try Int.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT CAST(julianday(day) - 2440587.5 AS INTEGER) FROM daily_update
                        WHERE accountId = ? ORDER BY day
                        """),
                arguments: [account.id]
            ).map(LocalDay.init(dayNumber:))
            var update: DailyUpdate?
            if let day = day(account),
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM daily_update WHERE accountId = ? AND day = ?"),
                    arguments: [account.id, day.description])
            {
                update = Self.dailyUpdate(from: row, day: day)
            }
            let history = DailyUpdateHistory(
                days: days, zoneChanges: try Self.zoneChanges(db, accountID: account.id), update: update)
            return (account, history)
        }
    }

    private static func dailyUpdate(from row: Row, day: LocalDay) -> DailyUpdate {
        // Always an object as stored; anything else (a hand-edited row) reads as no metrics.
        var metrics: [String: JSONValue] = [:]
        if case .object(let object) = JSONValue.parse(Data((row["metrics"] as String).utf8)) { metrics = object }
        return DailyUpdate(
            day: day, score: row["score"], metrics: metrics,
            recordedAt: row["recordedAt"], zone: row["zone"])
    }
}
