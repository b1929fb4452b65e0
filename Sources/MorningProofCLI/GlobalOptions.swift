import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofStore

/// Flags every command shares.
public struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The database file (default: MORNINGPROOF_DB, else $XDG_DATA_HOME/morningproof/morningproof.sqlite).",
            valueName: "path"))
    var databasePath: String?

    @Option(
        help: ArgumentHelp(
            "Act as if it were this moment: ISO 8601 with an offset or Z, e.g. 2026-03-08T07:30:00-05:00 (default: MORNINGPROOF_NOW, else the real time).",
            valueName: "instant"))
    var now: String?

    @Flag(help: "Print JSON for scripts instead of text.")
    var json = false

    public init() {}

    /// The moment the command acts at.
    func instant() throws -> Date {
        let text = now ?? ProcessInfo.processInfo.environment["MORNINGPROOF_NOW"]
        guard let text, !text.isEmpty else { return Date() }
        guard let date = ISOInstant.parse(text) else {
            throw MorningProofError.usage(
                "--now needs an ISO 8601 instant with an offset or Z, such as 2026-03-08T07:30:00-05:00, not \"\(text)\""
            )
        }
        return date
    }

    /// Opens the database and reads the clock: everything a command needs to act.
    func session() throws -> Session {
        let now = try instant()
        let database = try AppDatabase.open(path: DatabaseLocation.resolve(explicit: databasePath))
        let clock = try database.clock()
        return Session(database: database, clock: clock, now: now, json: json)
    }
}

/// An open database with the clock and the moment a command acts at.
struct Session {
    let database: AppDatabase
    let clock: DayClock
    let now: Date
    let json: Bool

    var today: LocalDay { clock.day(at: now) }

    /// Resolves a day argument: `YYYY-MM-DD`, `today`, `yesterday` or `-N` (N days ago).
    func day(_ text: String?) throws -> LocalDay {
        try Self.day(text, today: today)
    }

    /// Resolves a day argument relative to `today`.
    static func day(_ text: String?, today: LocalDay) throws -> LocalDay {
        guard let text else { return today }
        switch text.lowercased() {
        case "today": return today
        case "yesterday": return today.adding(days: -1)
        default:
            if text.hasPrefix("-"), let back = Int(text.dropFirst()), back >= 0 { return today.adding(days: -back) }
            if let day = LocalDay(text) { return day }
            throw MorningProofError.usage("bad date \"\(text)\": use YYYY-MM-DD, today, yesterday or -N")
        }
    }
}

/// Core's `ISOInstant` (which formats) under the CLI's name, so that code importing only the CLI finds it.
typealias ISOInstant = MorningProofCore.ISOInstant

/// ISO 8601 instants with an offset or Z, with or without seconds and fractions.
extension ISOInstant {
    /// Parses `2026-03-08T07:30:00-05:00`, `2026-03-08T12:30Z`, `2026-03-08T12:30:00.250+0100`.
    /// By hand: a date formatter would load ICU on every command that takes --now.
    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= b.count else { return nil }
            var value = 0
            for byte in b[i..<(i + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            i += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard i < b.count, b[i] == character.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t"),
            let date = LocalDay(year: year, month: month, day: day)
        else { return nil }
        i += 1
        guard let hour = digits(2), hour < 24, expect(":"), let minute = digits(2), minute < 60 else { return nil }
        var seconds = 0.0
        if expect(":") {
            guard let whole = digits(2), whole < 61 else { return nil }
            seconds = Double(whole)
            if expect(".") || expect(",") {
                var scale = 0.1
                var any = false
                while i < b.count, b[i] >= 48 && b[i] <= 57 {
                    seconds += Double(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                    any = true
                }
                guard any else { return nil }
            }
        }
        var offset = 0
        if expect("Z") || expect("z") {
            offset = 0
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hours = digits(2), hours <= 18 else { return nil }
            _ = expect(":")
            guard let minutes = digits(2), minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let local = Double(date.dayNumber * 86_400 + hour * 3600 + minute * 60) + seconds
        return Date(timeIntervalSince1970: local - Double(offset))
    }
}
