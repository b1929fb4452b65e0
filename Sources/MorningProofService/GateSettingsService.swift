import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The shield's settings of one account (`GateSettings`): read, replaced whole (the API's PUT), or
/// its site list changed one site at a time (the CLI's `gate sites add|remove`).
public struct GateSettingsService: Sendable {
    public let database: any SettingsStore

    public init(database: any SettingsStore) {
        self.database = database
    }

    /// The settings in force: what is stored, with every day and no cutoff for what is not.
    public func settings() async throws -> GateSettings {
        var stored: [String: String] = [:]
        for key in [GateSettings.sitesKey, GateSettings.cutoffKey, GateSettings.daysKey] {
            stored[key] = try await database.setting(key)
        }
        return GateSettings(stored: stored)
    }

    /// Checks every value first, then stores all three: bad input changes nothing.
    /// - Parameters:
    ///   - cutoff: `HH:MM`, or nil for no cutoff.
    ///   - days: weekday names, at least one.
    public func replace(sites: [String], cutoff: String?, days: [String]) async throws -> GateSettings {
        let settings = GateSettings(
            sites: try GateSettings.sites(sites), cutoff: try cutoff.map { try GateSettings.cutoff($0) },
            days: try GateSettings.days(days))
        try await store(settings)
        return settings
    }

    /// Adds host patterns to the list (those already on it stay where they are).
    public func addSites(_ sites: [String]) async throws -> GateSettings {
        var settings = try await self.settings()
        settings.sites = try GateSettings.sites(settings.sites + sites)
        try await store(settings)
        return settings
    }

    /// Removes host patterns from the list; not found (exit 66, 404) when one is not on it.
    public func removeSites(_ sites: [String]) async throws -> GateSettings {
        var settings = try await self.settings()
        for text in sites {
            let site = try GateSettings.site(text)
            guard settings.sites.contains(site) else {
                throw MorningProofError(.notFound, code: "no_such_site", "\(site) is not on the gate's site list")
            }
            settings.sites.removeAll { $0 == site }
        }
        try await store(settings)
        return settings
    }

    private func store(_ settings: GateSettings) async throws {
        for (key, value) in settings.storedValues { try await database.setSetting(key, to: value) }
    }
}

extension SettingRules {
    /// `config set gate.cutoff HH:MM` and `config set gate.days monday,tuesday`: the shield's hour
    /// and days (its sites are `gate sites add|remove`).
    public static let gateShield: [SettingRule] = [
        SettingRule(
            key: GateSettings.cutoffKey, help: "the hour the gate opens anyway, HH:MM (none: no cutoff)",
            check: GateSettings.checkCutoffSetting),
        SettingRule(
            key: GateSettings.daysKey,
            help: "the weekdays the gate applies, such as monday,tuesday (default: every day)",
            check: GateSettings.checkDaysSetting),
        SettingRule(
            key: "gate.server",
            help: "the server whose gate `gate` asks (http:// or https:// URL; empty: this database)",
            check: { $0.trimmingCharacters(in: .whitespaces) }),
        SettingRule(
            key: "gate.token-file", help: "a file holding the gate token for gate.server",
            check: { $0.trimmingCharacters(in: .whitespaces) }),
    ]
}
