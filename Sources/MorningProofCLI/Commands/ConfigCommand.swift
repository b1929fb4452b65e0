import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService
import Observer

/// `morningproof config`: the time zone, the day start and the other settings.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or change settings: timezone, day-start, week-start, and those of other features.",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show every setting.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let values = try await session.settings.all()
            if session.json { return try Console.json(values) }
            for key in values.keys.sorted() { Console.out("\(key) = \(UserText.visible(values[key]!))") }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a setting.",
            discussion: """
                timezone NAME     an IANA zone such as Europe/Istanbul (never a fixed offset). Changing it \
                records a travel day: left empty, it bridges streaks like a skip.
                day-start HH:MM   when a day begins, 00:00 to 12:00 (04:00 counts 01:30 as the day before).
                week-start DAY    the first day of a calendar week for --per week (monday by default).
                """)

        @Argument(help: "The setting's name.")
        var key: String

        @Argument(help: "Its new value.")
        var value: String

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating { try ConfigCommand.rules.validate(key: key, value: value) }
        }

        func run() async throws {
            let session = try await global.session()
            let stored = try await session.settings.set(key: key, value: value, now: session.now)
            if session.json { return try Console.json([key: stored]) }
            Console.out("\(key) = \(UserText.visible(stored))")
        }
    }

    /// Every setting of the libraries, and the notification hook's, which runs on this machine.
    static let rules = SettingRules(
        features: SettingRules.builtIn + [
            SettingRule(
                key: NotifySettings.hook, help: "an executable run for each notification (empty or none: stdout only)",
                check: NotifySettings.checkHook),
            SettingRule(
                key: NotifySettings.hookTimeout, help: "how long the hook may run before it is killed (default 10s)",
                check: NotifySettings.checkTimeout),
        ])
}

extension Session {
    /// The settings use cases on this session's database and clock.
    var settings: SettingsService { SettingsService(database: database, rules: ConfigCommand.rules) }
}
