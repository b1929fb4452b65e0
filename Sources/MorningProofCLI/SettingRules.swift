/// A setting of a feature beyond the clock: its key and how its value is checked.
struct SettingRule: Sendable {
    let key: String
    let help: String
    /// Returns the value to store, or throws a usage error that says what is wrong.
    let check: @Sendable (String) throws -> String
}

extension ConfigCommand {
    /// Settings of other features (notifications, check-in, quotes), each checking its own value.
    static let extraKeys: [SettingRule] = []
}
