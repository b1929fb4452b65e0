import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: GateStore {
    /// Unlocks on days `from` through `to`, oldest first.
    public func gateUnlocks(from: LocalDay, through to: LocalDay) async throws -> [GateUnlock] {
        try await asyncRead { db in try Self.unlocks(db, accountID: accountID, from: from, through: to) }
    }

    /// Records an unlock for `day` when `GateUnlockOutcome.of` allows it under `limit`: at most `limit`
    /// in the 7 days ending on `day`, one a day. Check and insert are one transaction.
    public func unlockGate(day: LocalDay, at instant: Date, reason: String, limit: Int) async throws
        -> GateUnlockOutcome
    {
        try await asyncWrite { db in
            try Self.unlock(db, accountID: accountID, day: day, at: instant, reason: reason) { _ in limit }
        }
    }

    /// Records an unlock of `day` when `GateUnlockOutcome.of` allows it under the limit `limit` gives
    /// for the week's unlocks, in the caller's transaction.
    static func unlock(
        _ db: Database, accountID: Int64, day: LocalDay, at instant: Date, reason: String,
        limit: ([GateUnlock]) throws -> Int
    ) throws -> GateUnlockOutcome {
        let week = try unlocks(db, accountID: accountID, from: GateUnlock.windowStart(endingOn: day), through: day)
        let outcome = GateUnlockOutcome.of(unlocking: day, week: week, limit: try limit(week))
        if case .unlocked = outcome {
            try db.execute(
                sql: "INSERT INTO gateUnlock (accountId, day, at, reason) VALUES (?, ?, ?, ?)",
                arguments: [accountID, day.description, instant, reason])
        }
        return outcome
    }

    private static func unlocks(_ db: Database, accountID: Int64, from: LocalDay, through to: LocalDay) throws
        -> [GateUnlock]
    {
        try Row.fetchAll(
            db,
            sql: "SELECT day, at, reason FROM gateUnlock WHERE accountId = ? AND day >= ? AND day <= ? ORDER BY day",
            arguments: [accountID, from.description, to.description]
        ).compactMap { row in
            guard let day = LocalDay(row["day"] as String) else { return nil }
            return GateUnlock(day: day, at: row["at"], reason: row["reason"])
        }
    }
}
