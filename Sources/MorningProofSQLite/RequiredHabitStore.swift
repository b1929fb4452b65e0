import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Habits made required on SQLite: the budget is judged and the habit saved in one transaction that
/// takes the write lock at BEGIN (as a skip's, `recordExcusedSkip`), so that edits and skips at once,
/// from this process or another, are decided one after the other.
extension AppDatabase: RequiredHabitStore {
    public func updateHabit(_ habit: Habit, today: LocalDay) async throws {
        try await writeImmediately { db in
            guard let stored = try Self.ownHabit(db, id: habit.id, accountID: accountID)?.habit else {
                throw StoreError.noHabit(habit.id)
            }
            if ExcuseBudget.spendsExcuses(becoming: habit, from: stored) {
                let skips =
                    try Int.fetchOne(
                        db,
                        sql:
                            "SELECT COUNT(*) FROM entry WHERE habitId = ? AND status = 'skipped' AND day BETWEEN ? AND ?",
                        arguments: [habit.id, ExcuseBudget.weekStart(endingOn: today).description, today.description]
                    ) ?? 0
                if skips > 0 {
                    let budget = try Self.excuseBudget(
                        db, accountID: accountID, travelDays: Self.zoneChanges(db, accountID: accountID).travelDays)
                    try budget.checkMakingRequired(skips: skips, today: today)
                }
            }
            try Self.saveHabit(db, habit, accountID: accountID)
        }
    }
}
