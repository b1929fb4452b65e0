import Foundation
import MorningProofCore

/// The owner's clock, which is a setting of the CLI's (`config set timezone`, `day-start`).
/// Served by SQLite.
public protocol OwnerClockStore: SettingsStore {
    /// Changes the owner's zone or day start, recording the change with its instant so that the
    /// days it touches count as travel days.
    func changeClock(to new: DayClock, at instant: Date, systemZone: String) async throws
}

extension OwnerClockStore {
    /// Changes the owner's clock; an owner who set no zone had the system's.
    public func changeClock(to new: DayClock, at instant: Date) async throws {
        try await changeClock(to: new, at: instant, systemZone: ZoneNames.systemDefault())
    }
}
