import MorningProofCore
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
    static let extraKeys: [SettingRule] = [metricSourcePriority, notifyHook, notifyHookTimeout]

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
