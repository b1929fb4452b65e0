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
    static let extraKeys: [SettingRule] = [
        SettingRule(
            key: NotifySettings.hook, help: "an executable run for each notification (empty: none)",
            check: NotifySettings.checkHook),
        SettingRule(
            key: NotifySettings.hookTimeout, help: "how long the hook may run before it is killed (default 10s)",
            check: NotifySettings.checkTimeout),
    ]
}
