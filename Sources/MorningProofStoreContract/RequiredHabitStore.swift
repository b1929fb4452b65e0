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
    /// Whether saving `habit` over `stored` makes its skips spend excuses: the gate starts waiting for
    /// it (`GateDecision.gatedHabits`): made required, or brought back from the archive required.
    public static func spendsExcuses(becoming habit: Habit, from stored: Habit) -> Bool {
        GateDecision.gatedHabits([stored]).isEmpty && !GateDecision.gatedHabits([habit]).isEmpty
    }

    /// The first day of the budget's rolling week that ends on `today`.
    public static func weekStart(endingOn today: LocalDay) -> LocalDay {
        today.adding(days: -6)
    }

    /// Refuses (`no_excuses_left`) making a habit required whose `skips` of the week ending `today`
    /// would spend more excuses than are left on `today`: with the standing's words when none is left,
    /// else with how many its skips would spend.
    public func checkMakingRequired(skips: Int, today: LocalDay) throws {
        let left = left(on: today)
        guard skips > left else { return }
        guard left > 0 else { throw standing(on: today).refusal }
        throw MorningProofError(
            .refused, code: "no_excuses_left",
            "required, it would spend an excuse for each of its \(skips) skips of the last 7 days, and "
                + "\(left == 1 ? "1 is" : "\(left) are") left this week")
    }
}
