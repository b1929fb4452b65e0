import MorningProofCore
import MorningProofStore

/// A setting of a feature beyond the clock: its key and how its value is checked.
struct SettingRule: Sendable {
    let key: String
    let help: String
    /// Returns the value to store, or throws a usage error that says what is wrong.
    let check: @Sendable (String) throws -> String
}

extension ConfigCommand {
    /// Settings of other features (notifications, check-in, quotes), each checking its own value.
    static let extraKeys: [SettingRule] = [metricSourcePriority]

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
}
