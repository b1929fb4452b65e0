import Foundation
import MorningProofCore
import MorningProofStore
import PostgresNIO

/// The seed API's daily check-in, as `AppDatabase`'s.
extension PostgresStore {
    /// Stores the update `make` returns for the account the token signs in, unless its day has
    /// one already (`inserted` false then). The token check, `make` and the insert share one
    /// READ COMMITTED transaction; `INSERT ... ON CONFLICT DO NOTHING` on the UNIQUE (account, day)
    /// key decides, so of simultaneous requests for one day exactly one is stored (the others wait
    /// for it to commit, then insert nothing). Nil for a bad token.
    public func insertDailyUpdate(
        tokenHash: String, at now: Date, _ make: @escaping @Sendable (AccountProfile) throws -> DailyUpdate
    ) async throws -> (update: DailyUpdate, inserted: Bool)? {
        try await transaction(.writing) { connection in
            guard let account = try await Self.account(connection, tokenHash: tokenHash, at: now, logger: logger) else {
                return nil
            }
            let update = try make(account)
            let rows = try await connection.query(
                """
                INSERT INTO daily_update (accountId, day, score, metrics, recordedAt, zone)
                VALUES (\(account.id), \(update.day.description), \(update.score),
                        \(JSONValue.object(update.metrics).text), \(update.recordedAt), \(update.zone))
                ON CONFLICT (accountId, day) DO NOTHING RETURNING id
                """, logger: logger
            ).collect()
            return (update, !rows.isEmpty)
        }
    }

    /// The account a token signs in, with its days with an update, its zone changes and the update
    /// of the day `day` picks for the account (today, from its clock), from one snapshot (a
    /// REPEATABLE READ transaction). Nil for a bad token.
    public func dailyUpdateHistory(
        tokenHash: String, at now: Date, day: @escaping @Sendable (AccountProfile) -> LocalDay?
    ) async throws -> (account: AccountProfile, history: DailyUpdateHistory)? {
        try await transaction(.snapshot) { connection in
            guard let account = try await Self.account(connection, tokenHash: tokenHash, at: now, logger: logger) else {
                return nil
            }
            let days = try await connection.query(
                "SELECT day FROM daily_update WHERE accountId = \(account.id) ORDER BY day", logger: logger
            ).collect().compactMap { LocalDay(try $0.decode(String.self)) }
            var update: DailyUpdate?
            if let day = day(account),
                let row = try await connection.query(
                    """
                    SELECT score, metrics, recordedAt, zone FROM daily_update
                    WHERE accountId = \(account.id) AND day = \(day.description)
                    """, logger: logger
                ).collect().first
            {
                let (score, metricsText, recordedAt, zone) = try row.decode((Double?, String, Date, String).self)
                // Always an object as stored; anything else (a hand-edited row) reads as no metrics.
                var metrics: [String: JSONValue] = [:]
                if case .object(let object) = JSONValue.parse(Data(metricsText.utf8)) { metrics = object }
                update = DailyUpdate(day: day, score: score, metrics: metrics, recordedAt: recordedAt, zone: zone)
            }
            let zoneChanges = try await Self.zoneChanges(connection, accountID: account.id, logger: logger)
            return (account, DailyUpdateHistory(days: days, zoneChanges: zoneChanges, update: update))
        }
    }
}
