import Foundation
import GRDB
import MorningProofCore

/// What the check-in summary reads, from one snapshot.
public struct DailyUpdateHistory: Sendable {
    /// Every day with an update, oldest first.
    public var days: [LocalDay]
    /// The account's zone changes, oldest first.
    public var zoneChanges: [ZoneChange]
    /// The update of the day asked for, if it has one.
    public var update: DailyUpdate?
}

extension AppDatabase {
    /// Stores an update unless its day has one already; false then. The UNIQUE (account, day) key
    /// decides, so of simultaneous requests for one day exactly one is stored.
    public func insertDailyUpdate(_ update: DailyUpdate, accountID: Int64) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(
                sql: """
                    INSERT INTO daily_update (accountId, day, score, metrics, recordedAt, zone) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (accountId, day) DO NOTHING
                    """,
                arguments: [
                    accountID, update.day.description, update.score, JSONValue.object(update.metrics).text,
                    update.recordedAt, update.zone,
                ])
            return db.changesCount == 1
        }
    }

    /// The days with an update, the zone changes and `day`'s update, for one account.
    public func dailyUpdateHistory(accountID: Int64, day: LocalDay) async throws -> DailyUpdateHistory {
        try await asyncRead { db in
            let days = try String.fetchAll(
                db, sql: "SELECT day FROM daily_update WHERE accountId = ? ORDER BY day", arguments: [accountID]
            ).compactMap { LocalDay($0) }
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM daily_update WHERE accountId = ? AND day = ?",
                arguments: [accountID, day.description])
            return DailyUpdateHistory(
                days: days, zoneChanges: try Self.zoneChanges(db, accountID: accountID),
                update: row.map { Self.dailyUpdate(from: $0, day: day) })
        }
    }

    private static func dailyUpdate(from row: Row, day: LocalDay) -> DailyUpdate {
        // Always an object as stored; anything else (a hand-edited row) reads as no metrics.
        var metrics: [String: JSONValue] = [:]
        if case .object(let object) = JSONValue.parse(Data((row["metrics"] as String).utf8)) { metrics = object }
        return DailyUpdate(
            day: day, score: row["score"], metrics: metrics, recordedAt: row["recordedAt"], zone: row["zone"])
    }
}
