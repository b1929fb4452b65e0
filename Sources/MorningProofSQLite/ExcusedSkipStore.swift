import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Skips on SQLite: whether the habit is required is read, the budget judged and the skip written
/// in one transaction that takes the write lock at BEGIN, so that skips and habit edits at once,
/// from this process or another (the CLI beside the server), are decided one after the other.
extension AppDatabase: ExcusedSkipStore {
    public func recordExcusedSkip(_ entry: Entry, lastWriterWins: Bool) async throws -> RecordOutcome {
        try await writeImmediately { db in
            guard let stored = try Self.ownHabit(db, id: entry.habitID, accountID: accountID) else {
                throw StoreError.noHabit(entry.habitID)
            }
            // Not required as stored now (whatever the caller read before): free, as in Loop.
            if GateDecision.gatedHabits([stored.habit]).isEmpty {
                return try Self.recordAction(entry, lastWriterWins: lastWriterWins, in: db)
            }
            let budget = try Self.excuseBudget(
                db, accountID: accountID, travelDays: Self.zoneChanges(db, accountID: accountID).travelDays)
            let skipped = try Self.entry(db, habitID: entry.habitID, day: entry.day)?.status == .skipped
            try budget.checkSkip(of: entry.habitID, on: entry.day, alreadySkipped: skipped)
            return try Self.recordAction(entry, lastWriterWins: lastWriterWins, in: db)
        }
    }

    public func unlockGateWithExcuse(day: LocalDay, at instant: Date, reason: String) async throws
        -> GateUnlockOutcome
    {
        try await writeImmediately { db in
            let budget = try Self.excuseBudget(
                db, accountID: accountID, travelDays: Self.zoneChanges(db, accountID: accountID).travelDays)
            return try Self.unlock(db, accountID: accountID, day: day, at: instant, reason: reason) {
                $0.count + budget.left(on: day)
            }
        }
    }
}
