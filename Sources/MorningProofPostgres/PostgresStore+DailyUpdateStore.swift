import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The seed API's daily check-in, as `AppDatabase`'s.
extension PostgresStore: DailyUpdateStore {
    /// Stores the update `make` returns for the account the token signs in, unless its day has
    /// one already (`inserted` false then). The token check, `make` and the insert share one
    /// READ COMMITTED transaction; `INSERT ... ON CONFLICT DO NOTHING` on the UNIQUE (account, day)
    /// key decides, so of simultaneous requests for one day exactly one is stored (the others wait
    /// for it to commit, then insert nothing). Nil for a bad token.
    public func insertDailyUpdate(
        tokenHash: String, at now: Date, scopes: Set<TokenScope>,
        _ make: @escaping @Sendable (AccountProfile) throws -> DailyUpdate
    ) async throws -> (update: DailyUpdate, inserted: Bool)? {
        try await transaction(.writing) { connection in
            guard
                let account = try await Self.account(
                    connection, tokenHash: tokenHash, at: now, scopes: scopes, logger: logger)
            else {
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
    /// of the day `day` picks for the account (today, from its clock). Nil for a bad token.
    ///
    /// The summary is the API's most frequent read, so it costs one prepared statement (token check, profile,
    /// days as day numbers computed by PostgreSQL, whether there are zone changes), then one for the
    /// day's update only when its day is among those days, and one for the zone changes only when
    /// there are any: not a transaction of six round trips. The days and the update agree: an update
    /// is never changed once stored, and the update is read only for a day the first statement saw.
    public func dailyUpdateHistory(
        tokenHash: String, at now: Date, scopes: Set<TokenScope>, day: @escaping @Sendable (AccountProfile) -> LocalDay?
    ) async throws -> (account: AccountProfile, history: DailyUpdateHistory)? {
        try await transaction(.statement) { connection in
            let statement = SummaryStatement(tokenHash: tokenHash, now: now, scopes: Self.scopeNames(scopes))
            var found: PostgresRow?
            for try await row in try await connection.execute(statement, logger: logger) { found = row }
            guard let row = found else { return nil }
            let (id, email, timeZone, dayStart, weekStart, dayNumbers, travelled) = try row.decode(
                (Int64, String?, String?, Int, Int, [Int32], Bool).self)
            let account = AccountProfile(
                id: id, email: email, timeZone: timeZone, dayStart: dayStart, weekStart: weekStart)
            let days = dayNumbers.map { LocalDay(dayNumber: Int($0)) }
            var update: DailyUpdate?
            if let day = day(account), days.last == day || days.contains(day),
                let row = try await connection.query(Self.updateQuery(accountID: account.id, day: day), logger: logger)
                    .collect().first
            {
                let (score, metricsText, recordedAt, zone) = try row.decode((Double?, String, Date, String).self)
                // Always an object as stored; anything else (a hand-edited row) reads as no metrics.
                var metrics: [String: JSONValue] = [:]
                if case .object(let object) = JSONValue.parse(Data(metricsText.utf8)) { metrics = object }
                update = DailyUpdate(day: day, score: score, metrics: metrics, recordedAt: recordedAt, zone: zone)
            }
            let zoneChanges =
                travelled ? try await Self.zoneChanges(connection, accountID: account.id, logger: logger) : []
            return (account, DailyUpdateHistory(days: days, zoneChanges: zoneChanges, update: update))
        }
    }

    /// The summary's first statement as its plan test sees it (`SummaryStatement`).
    static func summaryQuery(tokenHash: String, at now: Date, scopes: Set<TokenScope>) -> PostgresQuery {
        SummaryStatement(tokenHash: tokenHash, now: now, scopes: scopeNames(scopes)).query
    }

    /// The account's update of one day (a hot query: `PostgresPlanTests`).
    static func updateQuery(accountID: Int64, day: LocalDay) -> PostgresQuery {
        """
        SELECT score, metrics, recordedAt, zone FROM daily_update
        WHERE accountId = \(accountID) AND day = \(day.description)
        """
    }
}
