import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A setting of a feature beyond the clock: its key and how its value is checked.
public struct SettingRule: Sendable {
    public let key: String
    public let help: String
    /// Returns the value to store, or throws a usage error that says what is wrong.
    public let check: @Sendable (String) throws -> String

    public init(key: String, help: String, check: @escaping @Sendable (String) throws -> String) {
        self.key = key
        self.help = help
        self.check = check
    }
}

/// Which settings exist and how their values are checked: the clock's (time zone, day start, week
/// start) and those of the features a front end offers.
public struct SettingRules: Sendable {
    /// The settings of features beyond the clock, in the order errors list them.
    public let features: [SettingRule]

    public init(features: [SettingRule] = SettingRules.builtIn) {
        self.features = features
    }

    /// The settings that change the clock or the calendar.
    public static let clockKeys = [SettingKey.timeZone, SettingKey.dayStart, SettingKey.weekStart]

    /// Every feature setting of the libraries: the check-in and the gate, the quotes file, the metric sources.
    public static let builtIn = checkinAndGate + gateShield + [quotesFile, metricSourcePriority]

    /// The check-in's texts and the gate's unlocks.
    public static let checkinAndGate: [SettingRule] = [
        SettingRule(
            key: SettingKey.checkinQuestion, help: "the check-in question", check: SettingValues.checkinQuestion),
        SettingRule(
            key: SettingKey.checkinVerse, help: "a verse or saying on the block screen (empty for none)",
            check: SettingValues.checkinVerse),
        SettingRule(
            key: SettingKey.checkinSuggestions, help: "suggestions, separated by ; (\"Pray; Read\")",
            check: SettingValues.checkinSuggestions),
        SettingRule(
            key: SettingKey.gateUnlocksPerWeek, help: "the older name of excuses.per-week",
            check: SettingValues.unlocksPerWeek),
        SettingRule(
            key: SettingKey.excusesPerWeek,
            help:
                "excuses (gate unlocks, skips of required habits, empty travel days) in any 7 days, 0 to 7 (default 2)",
            check: { try SettingValues.excusesPerWeek($0) }),
    ]

    /// The excuse budget's key and its alias: setting either sets both.
    public static let excuseKeys = [SettingKey.excusesPerWeek, SettingKey.gateUnlocksPerWeek]

    /// A quotes JSON file on this machine (or `builtin`): for a front end that runs where the file is.
    public static let quotesFile = SettingRule(
        key: SettingKey.quotesFile, help: "a quotes JSON file, builtin, or builtin-general (no scripture)",
        check: QuoteSource.checkSetting)

    /// `metrics.source-priority "Watch,iPhone"`: the first listed source with data gives a day's totals.
    public static let metricSourcePriority = SettingRule(
        key: SettingKey.metricSourcePriority,
        help: "Comma-separated parts of source names, e.g. \"Watch,iPhone\": the first with data on a day wins.",
        check: SettingValues.sourcePriority)

    /// Checks what can be checked without the database: the key is known, and the value is plain text
    /// of a sane length that suits a clock setting. Feature values are checked by their rule in `set`.
    public func validate(key: String, value: String) throws {
        let isCheckinText = [SettingKey.checkinQuestion, SettingKey.checkinVerse, SettingKey.checkinSuggestions]
            .contains(key)
        try UserText.validate(
            value, field: "the value of \(key)",
            maxLength: isCheckinText ? UserText.checkinTextMaxLength : UserText.settingMaxLength)
        switch key {
        case SettingKey.timeZone: _ = try SettingValues.timeZone(value)
        case SettingKey.dayStart: _ = try SettingValues.dayStart(value)
        case SettingKey.weekStart: _ = try SettingValues.weekStart(value)
        default:
            guard features.contains(where: { $0.key == key }) else {
                let all = Self.clockKeys + features.map(\.key)
                throw MorningProofError.usage("unknown setting \"\(key)\" (settings: \(all.joined(separator: ", ")))")
            }
        }
    }
}

/// Reading and changing settings, each value checked by its rule before it is stored.
public struct SettingsService: Sendable {
    public let database: any OwnerClockStore
    public let rules: SettingRules

    public init(database: any OwnerClockStore, rules: SettingRules = SettingRules()) {
        self.database = database
        self.rules = rules
    }

    /// Every setting: the stored ones with the clock and week start in force.
    public func all() async throws -> [String: String] {
        var values = try await database.settings()
        let clock = try await database.clock()
        values[SettingKey.timeZone] = clock.zoneIdentifier
        values[SettingKey.dayStart] = formatClockTime(clock.dayStart)
        values[SettingKey.weekStart] = Weekday.names[try await database.weekStart() - 1]
        let excuses = ExcuseBudget.perWeek(
            stored: values[SettingKey.excusesPerWeek], alias: values[SettingKey.gateUnlocksPerWeek])
        if SettingRules.excuseKeys.contains(where: { values[$0] != nil }) {
            for key in SettingRules.excuseKeys { values[key] = String(excuses) }
        }
        return values
    }

    /// Checks and stores a setting; returns the value as stored. A new time zone or day start is
    /// recorded with `now`, so that the days it touches count as travel days.
    public func set(key: String, value: String, now: Date) async throws -> String {
        try rules.validate(key: key, value: value)
        switch key {
        case SettingKey.timeZone:
            let clock = try await database.clock()
            try await database.changeClock(
                to: DayClock(zoneIdentifier: try SettingValues.timeZone(value), dayStart: clock.dayStart)!, at: now)
        case SettingKey.dayStart:
            let clock = try await database.clock()
            try await database.changeClock(
                to: DayClock(timeZone: clock.timeZone, dayStart: try SettingValues.dayStart(value)), at: now)
        case SettingKey.weekStart:
            try await database.setSetting(key, to: try SettingValues.weekStart(value))
        case _ where SettingRules.excuseKeys.contains(key):
            let checked = try rules.features.first { $0.key == key }!.check(value)
            for name in SettingRules.excuseKeys { try await database.setSetting(name, to: checked) }
        default:
            let checked = try rules.features.first { $0.key == key }!.check(value)
            try await database.setSetting(key, to: checked)
        }
        return try await database.setting(key) ?? value
    }
}
