import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStore
import Observer

/// A setting of a feature beyond the clock: its key and how its value is checked.
struct SettingRule: Sendable {
    let key: String
    let help: String
    /// Returns the value to store, or throws a usage error that says what is wrong.
    let check: @Sendable (String) throws -> String
}

extension ConfigCommand {
    /// Settings of other features (notifications, check-in, quotes), each checking its own value.
    static let extraKeys: [SettingRule] = checkinKeys + [metricSourcePriority, notifyHook, notifyHookTimeout]

    /// The check-in, the gate and the quotes (see CheckinCommand, GateCommand, QuoteCommand).
    static let checkinKeys: [SettingRule] = [
        SettingRule(key: SettingKey.checkinQuestion, help: "the check-in question") { value in
            let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw MorningProofError.usage("checkin.question needs some words") }
            return text
        },
        SettingRule(key: SettingKey.checkinVerse, help: "a verse or saying on the block screen (empty for none)") {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        },
        SettingRule(key: SettingKey.checkinSuggestions, help: "suggestions, separated by ; (\"Pray; Read\")") { value in
            let suggestions = CheckinTexts.parseSuggestions(value)
            guard !suggestions.isEmpty else {
                throw MorningProofError.usage(
                    "checkin.suggestions takes suggestions separated by ;, such as \"Pray; Read\"")
            }
            return CheckinTexts.joinSuggestions(suggestions)
        },
        SettingRule(key: SettingKey.gateUnlocksPerWeek, help: "gate unlocks allowed in any 7 days, 0 to 7 (default 1)")
        {
            value in
            guard let number = Int(value), (0...7).contains(number) else {
                throw MorningProofError.usage(
                    "gate.unlocks-per-week takes a whole number from 0 to 7, not \"\(value)\"")
            }
            return String(number)
        },
        SettingRule(key: SettingKey.quotesFile, help: "a quotes JSON file, or builtin") {
            try QuoteSource.checkSetting($0)
        },
    ]

    /// `metrics.source-priority "Watch,iPhone"`: the first listed source with data gives a day's totals.
    static let metricSourcePriority = SettingRule(
        key: SettingKey.metricSourcePriority,
        help: "Comma-separated parts of source names, e.g. \"Watch,iPhone\": the first with data on a day wins."
    ) { value in
        let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else {
            throw MorningProofError.usage("metrics.source-priority needs source names, such as \"Watch,iPhone\"")
        }
        return names.joined(separator: ",")
    }

    /// `notify.hook PATH`: the executable run for each notification; empty or `none` turns it off.
    static let notifyHook = SettingRule(
        key: NotifySettings.hook, help: "an executable run for each notification (empty or none: stdout only)",
        check: NotifySettings.checkHook)

    /// `notify.hook-timeout 10s`: how long the hook may run before it is killed.
    static let notifyHookTimeout = SettingRule(
        key: NotifySettings.hookTimeout, help: "how long the hook may run before it is killed (default 10s)",
        check: NotifySettings.checkTimeout)
}
