import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Skips on PostgreSQL, as `AppDatabase`'s: whether the habit is required is read, the budget judged
/// and the skip written in one transaction that holds the account's row first (as a gate unlock and
/// a habit edit do), so that skips, edits and unlocks of one account at once, from any number of
/// servers, are decided one at a time.
extension PostgresStore: ExcusedSkipStore {
    public func recordExcusedSkip(_ entry: Entry, lastWriterWins: Bool) async throws -> RecordOutcome {
        try await transaction(.writing) { connection in
            try await connection.query(
                "SELECT id FROM account WHERE id = \(accountID) FOR NO KEY UPDATE", logger: logger)
            guard
                let stored = try await Self.ownHabit(
                    connection, id: entry.habitID, accountID: accountID, locking: true, logger: logger)
            else { throw StoreError.noHabit(entry.habitID) }
            // Not required as stored now (read after the lock, whatever the caller read before): free.
            if GateDecision.gatedHabits([stored]).isEmpty {
                return try await Self.recordAction(entry, lastWriterWins: lastWriterWins, connection, logger: logger)
            }
            // Read committed: read after the lock, these see every skip committed before it.
            let travel = try await Self.zoneChanges(connection, accountID: accountID, logger: logger).travelDays
            let budget = try await Self.excuseBudget(
                connection, accountID: accountID, travelDays: travel, logger: logger)
            let skipped =
                try await Self.entry(connection, habitID: entry.habitID, day: entry.day, logger: logger)?.status
                == .skipped
            try budget.checkSkip(of: entry.habitID, on: entry.day, alreadySkipped: skipped)
            return try await Self.recordAction(entry, lastWriterWins: lastWriterWins, connection, logger: logger)
        }
    }

    public func unlockGateWithExcuse(day: LocalDay, at instant: Date, reason: String) async throws
        -> GateUnlockOutcome
    {
        try await transaction(.writing) { connection in
            try await connection.query(
                "SELECT id FROM account WHERE id = \(accountID) FOR NO KEY UPDATE", logger: logger)
            // Read committed: read after the lock, the budget sees every skip and unlock committed before it.
            let travel = try await Self.zoneChanges(connection, accountID: accountID, logger: logger).travelDays
            let budget = try await Self.excuseBudget(
                connection, accountID: accountID, travelDays: travel, logger: logger)
            return try await Self.unlock(
                connection, accountID: accountID, day: day, at: instant, reason: reason, logger: logger
            ) { $0.count + budget.left(on: day) }
        }
    }
}
