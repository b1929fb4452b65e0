import Foundation
import MorningProofCore

/// Habit edits that make a habit required, which spends the account's excuses (`ExcuseBudget`) for
/// the habit's skips of the budget's week: the budget's check and the habit's save are one
/// transaction (as `ExcusedSkipStore.recordExcusedSkip`'s), so that edits and skips sent at once
/// cannot both spend the last excuse (issue 39).
public protocol RequiredHabitStore: AccountScopedStore {
    /// Saves every field of the existing `habit` but its creation day, as `updateHabit` does. When
    /// the save makes it required (`ExcuseBudget.spendsExcuses(becoming:from:)`, judged against the
    /// habit as stored inside the transaction, which holds the account as a skip does), each of its
    /// skips of the week ending `today` spends an excuse; with fewer left, nothing is written and the
    /// refusal of the day's standing is thrown (`no_excuses_left`).
    func updateHabit(_ habit: Habit, today: LocalDay) async throws
}

extension ExcuseBudget {
    /// Whether saving `habit` over `stored` makes its skips spend excuses: it becomes required (and
    /// is not a check-in, which the gate judges by its answer).
    public static func spendsExcuses(becoming habit: Habit, from stored: Habit) -> Bool {
        !stored.required && habit.required && habit.kind != .checkin
    }

    /// The first day of the budget's rolling week that ends on `today`.
    public static func weekStart(endingOn today: LocalDay) -> LocalDay {
        today.adding(days: -6)
    }

    /// Refuses (`no_excuses_left`) making a habit required whose `skips` of the week ending `today`
    /// would spend more excuses than are left on `today`.
    public func checkMakingRequired(skips: Int, today: LocalDay) throws {
        guard skips == 0 || left(on: today) >= skips else { throw standing(on: today).refusal }
    }
}
