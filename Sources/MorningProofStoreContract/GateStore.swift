import Foundation
import MorningProofCore

/// Unlocks of the gate.
public protocol GateStore: AccountScopedStore {
    /// Unlocks on days `from` through `to`, oldest first.
    func gateUnlocks(from: LocalDay, through to: LocalDay) async throws -> [GateUnlock]
    /// Records an unlock for `day` when `GateUnlockOutcome.of` allows it under `limit`; check and
    /// insert are one transaction.
    func unlockGate(day: LocalDay, at instant: Date, reason: String, limit: Int) async throws -> GateUnlockOutcome
}

extension GateStore {
    /// The unlock of a day, if any.
    public func gateUnlock(on day: LocalDay) async throws -> GateUnlock? {
        try await gateUnlocks(from: day, through: day).first
    }
}
