import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Habits made required on PostgreSQL, as `AppDatabase`'s: the budget is judged and the habit saved
/// in one transaction that holds the account's row first (as a skip or a gate unlock does), so that
/// edits, skips and unlocks of one account at once, from any number of servers, go one at a time.
extension PostgresStore: RequiredHabitStore {
    public func updateHabit(_ habit: Habit, today: LocalDay) async throws {
        try await transaction(.writing) { connection in
            try await connection.query(
                "SELECT id FROM account WHERE id = \(accountID) FOR NO KEY UPDATE", logger: logger)
            guard
                let stored = try await Self.ownHabit(
                    connection, id: habit.id, accountID: accountID, locking: true, logger: logger)
            else { throw StoreError.noHabit(habit.id) }
            if ExcuseBudget.spendsExcuses(becoming: habit, from: stored) {
                // Read committed: read after the lock, these see every skip committed before it.
                let skips =
                    try await connection.query(
                        """
                        SELECT count(*) FROM entry WHERE habitId = \(habit.id) AND status = 'skipped'
                            AND day BETWEEN \(ExcuseBudget.weekStart(endingOn: today).description) AND \(today.description)
                        """, logger: logger
                    ).collect().first?.decode(Int64.self) ?? 0
                if skips > 0 {
                    let travel = try await Self.zoneChanges(connection, accountID: accountID, logger: logger).travelDays
                    let budget = try await Self.excuseBudget(
                        connection, accountID: accountID, travelDays: travel, logger: logger)
                    try budget.checkMakingRequired(skips: Int(skips), today: today)
                }
            }
            try await Self.saveHabit(connection, habit, accountID: accountID, logger: logger)
        }
    }
}
