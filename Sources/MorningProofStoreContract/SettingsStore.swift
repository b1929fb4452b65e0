import Foundation
import MorningProofCore

/// The account's settings and clock.
public protocol SettingsStore: AccountScopedStore {
    /// The clock in force for the account; not found while it has no zone. `systemZone` is the
    /// zone of SQLite's owner, whose clock is a setting, until one is set.
    func clock(systemZone: @autoclosure () -> String) async throws -> DayClock
    /// The same clock for the account signed in as `profile` (its row, as checking the request's
    /// token read it): a store that keeps every clock on the account row answers from `profile`
    /// without reading it again.
    func clock(signedIn profile: AccountProfile, systemZone: @autoclosure () -> String) async throws -> DayClock
    /// The first day of the account's calendar week, 1 (Monday) to 7 (Sunday).
    func weekStart() async throws -> Int
    /// Every stored setting of the account, by key.
    func settings() async throws -> [String: String]
    /// One setting's stored value (of the account), or nil.
    func setting(_ key: String) async throws -> String?
    /// Stores a setting of the account (nil removes it).
    func setSetting(_ key: String, to value: String?) async throws
}

extension SettingsStore {
    /// The clock in force for the account, with the system's zone for an owner who set none.
    public func clock() async throws -> DayClock {
        try await clock(systemZone: ZoneNames.systemDefault())
    }

    /// The clock read again: SQLite's, whose owner keeps it in a setting.
    public func clock(signedIn profile: AccountProfile, systemZone: @autoclosure () -> String) async throws
        -> DayClock
    {
        try await clock(systemZone: systemZone())
    }

    /// The clock for the account signed in as `profile`, with the system's zone for an owner who set none.
    public func clock(signedIn profile: AccountProfile) async throws -> DayClock {
        try await clock(signedIn: profile, systemZone: ZoneNames.systemDefault())
    }

    /// How many excuses (unlocks among them) are allowed in any 7 days (`excuses.per-week`, else its
    /// alias `gate.unlocks-per-week`, default 2).
    public func gateUnlocksPerWeek() async throws -> Int {
        ExcuseBudget.perWeek(
            stored: try await setting(SettingKey.excusesPerWeek),
            alias: try await setting(SettingKey.gateUnlocksPerWeek))
    }
}
