import Foundation
import MorningProofCore

/// The account's weekly budget of excuses (`ExcuseBudget`), as both engines judge it.
public protocol ExcuseStore: AccountScopedStore {
    /// The budget judged over the account's whole history: `excuses.per-week` (or its alias), the
    /// gate unlocks, the skips of required habits and their travel days left empty.
    func excuseBudget() async throws -> ExcuseBudget
}

extension ExcuseBudget {
    /// The SQL condition, on a table aliased `habit`, of the habits whose skips and empty travel
    /// days spend excuses: the habits the gate waits for (`GateDecision.gatedHabits`), required ones
    /// but check-ins (the gate judges those by their answer) and archived ones (asked nothing).
    public static let requiredHabitSQL = "habit.required AND habit.kind <> 'checkin' AND NOT habit.archived"
}
