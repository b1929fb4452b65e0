import Foundation
import MorningProofCore

/// Skips, which spend the account's excuses (`ExcuseBudget`) when the habit is required: whether it
/// is, the budget's check and the skip's write are one transaction, so that skips sent at once (two
/// phones, a phone and the CLI), or a skip and the edit that makes its habit required, cannot spend
/// more than the budget.
public protocol ExcusedSkipStore: AccountScopedStore {
    /// A person's skip (`entry.status` is `.skipped`) of any habit, recorded as `recordAction` records
    /// it. The habit is read inside the transaction (which holds the account, as a gate unlock and
    /// `RequiredHabitStore.updateHabit` do): not required (or a check-in), the skip is free; required,
    /// it is recorded when `ExcuseBudget.allowsSkip` allows it (every rolling week holding the day has
    /// an excuse left), else nothing is written and `ExcuseBudget.checkSkip`'s refusal is thrown
    /// (`no_excuses_left`).
    func recordExcusedSkip(_ entry: Entry, lastWriterWins: Bool) async throws -> RecordOutcome
    /// A gate unlock of `day`, which spends an excuse: `GateUnlockOutcome.of` with the limit the unlocks
    /// of the rolling week ending on `day` plus the excuses left on it, judged inside the transaction
    /// that records it (holding the account as `recordExcusedSkip` does), so that an unlock and a skip
    /// sent at once cannot both spend the last excuse.
    func unlockGateWithExcuse(day: LocalDay, at instant: Date, reason: String) async throws -> GateUnlockOutcome
}
