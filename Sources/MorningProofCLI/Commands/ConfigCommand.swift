import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStore

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
            let session = try global.session()
            var values = try session.database.settings()
            values[SettingKey.timeZone] = session.clock.zoneIdentifier
            values[SettingKey.dayStart] = formatClockTime(session.clock.dayStart)
            values[SettingKey.weekStart] = Weekday.names[try session.database.weekStart() - 1]
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

        static let known = [SettingKey.timeZone, SettingKey.dayStart, SettingKey.weekStart]

        func validate() throws {
            try validating {
                let isCheckinText = [
                    SettingKey.checkinQuestion, SettingKey.checkinVerse, SettingKey.checkinSuggestions,
                ]
                .contains(key)
                try UserText.validate(
                    value, field: "the value of \(key)",
                    maxLength: isCheckinText ? UserText.checkinTextMaxLength : UserText.settingMaxLength)
                switch key {
                case SettingKey.timeZone: _ = try ClockSettings.timeZone(value)
                case SettingKey.dayStart: _ = try ClockSettings.dayStart(value)
                case SettingKey.weekStart: _ = try ClockSettings.weekStart(value)
                default:
                    guard ConfigCommand.extraKeys.contains(where: { $0.key == key }) else {
                        let all = Self.known + ConfigCommand.extraKeys.map(\.key)
                        throw MorningProofError.usage(
                            "unknown setting \"\(key)\" (settings: \(all.joined(separator: ", ")))")
                    }
                }
            }
        }

        func run() async throws {
            let session = try global.session()
            switch key {
            case SettingKey.timeZone:
                try session.database.changeClock(
                    to: DayClock(zoneIdentifier: value, dayStart: session.clock.dayStart)!,
                    at: session.now)
            case SettingKey.dayStart:
                try session.database.changeClock(
                    to: DayClock(timeZone: session.clock.timeZone, dayStart: parseClockTime(value)!), at: session.now)
            case SettingKey.weekStart:
                try session.database.setSetting(key, to: Weekday.names[Weekday.number(of: value)! - 1])
            default:
                let checked = try ConfigCommand.extraKeys.first { $0.key == key }!.check(value)
                try session.database.setSetting(key, to: checked)
            }
            let stored = try session.database.setting(key) ?? value
            if session.json { return try Console.json([key: stored]) }
            Console.out("\(key) = \(UserText.visible(stored))")
        }
    }
}
