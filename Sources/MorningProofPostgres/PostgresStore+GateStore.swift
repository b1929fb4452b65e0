import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Gate unlocks, as `AppDatabase`'s: at most `limit` in any 7 days (`GateUnlockOutcome.of`), checked
/// and recorded in one transaction.
extension PostgresStore: GateStore {
    /// Unlocks on days `from` through `to`, oldest first.
    public func gateUnlocks(from: LocalDay, through to: LocalDay) async throws -> [GateUnlock] {
        try await transaction(.statement) { connection in
            try await Self.unlocks(connection, accountID: accountID, from: from, through: to, logger: logger)
        }
    }

    /// Records an unlock for `day` when `GateUnlockOutcome.of` allows it under `limit`: check and
    /// insert are one transaction, which holds the account's row.
    public func unlockGate(day: LocalDay, at instant: Date, reason: String, limit: Int) async throws
        -> GateUnlockOutcome
    {
        try await transaction(.writing) { connection in
            try await connection.query(
                "SELECT id FROM account WHERE id = \(accountID) FOR NO KEY UPDATE", logger: logger)
            return try await Self.unlock(
                connection, accountID: accountID, day: day, at: instant, reason: reason, logger: logger
            ) { _ in limit }
        }
    }

    /// Records an unlock of `day` when `GateUnlockOutcome.of` allows it under the limit `limit` gives
    /// for the week's unlocks, in the caller's transaction (which holds the account).
    static func unlock(
        _ connection: PostgresConnection, accountID: Int64, day: LocalDay, at instant: Date, reason: String,
        logger: Logger, limit: ([GateUnlock]) -> Int
    ) async throws -> GateUnlockOutcome {
        let week = try await unlocks(
            connection, accountID: accountID, from: GateUnlock.windowStart(endingOn: day), through: day,
            logger: logger)
        let outcome = GateUnlockOutcome.of(unlocking: day, week: week, limit: limit(week))
        if case .unlocked = outcome {
            try await connection.query(
                """
                INSERT INTO gateUnlock (accountId, day, at, reason)
                VALUES (\(accountID), \(day.description), \(instant), \(reason))
                """, logger: logger)
        }
        return outcome
    }

    private static func unlocks(
        _ connection: PostgresConnection, accountID: Int64, from: LocalDay, through to: LocalDay, logger: Logger
    ) async throws -> [GateUnlock] {
        try await connection.query(
            """
            SELECT day, at, reason FROM gateUnlock
            WHERE accountId = \(accountID) AND day >= \(from.description) AND day <= \(to.description) ORDER BY day
            """, logger: logger
        ).collect().compactMap { row in
            let (day, at, reason) = try row.decode((String, Date, String).self)
            return LocalDay(day).map { GateUnlock(day: $0, at: at, reason: reason) }
        }
    }
}
