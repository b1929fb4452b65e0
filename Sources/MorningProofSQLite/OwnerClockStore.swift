import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The owner's clock (account 1, the CLI's): the `timezone` and `day-start` settings, changed with
/// the change recorded. Another account's clock is its profile (`changeProfile`).
extension AppDatabase: OwnerClockStore {
    /// Changes the zone or the day start, recording the change with its instant so that the
    /// days it touches count as travel days.
    /// Only the owner's clock is a setting; another account's is its profile (`changeProfile`).
    public func changeClock(to new: DayClock, at instant: Date, systemZone: String = ZoneNames.systemDefault())
        async throws
    {
        guard accountID == AccountProfile.ownerID else {
            throw StoreError(
                .invalid, value: String(accountID), "an account's clock is its profile; change it with changeProfile")
        }
        try await asyncWrite { db in try Self.changeOwnerClock(db, to: new, at: instant, systemZone: systemZone) }
    }

    /// The owner's clock is the `timezone` and `day-start` settings.
    static func changeOwnerClock(_ db: Database, to new: DayClock, at instant: Date, systemZone: String) throws {
        let stored = try storedSettings(db)
        let old = Self.clock(from: stored, systemZone: systemZone)
        try Self.storeSetting(db, SettingKey.timeZone, new.zoneIdentifier)
        try Self.storeSetting(db, SettingKey.dayStart, formatClockTime(new.dayStart))
        let before = stored[SettingKey.timeZone] == nil ? nil : old
        if let change = ZoneChange.recorded(from: before, to: new, at: instant) {
            try insert(change, accountID: AccountProfile.ownerID, db)
        }
    }
}
