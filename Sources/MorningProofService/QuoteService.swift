import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Where the quotes come from: `config set quotes.file PATH`, else the built-in set.
public enum QuoteSource {
    /// Reads and checks a quotes file; a missing file is `noInput`, a bad one `dataError` with the line.
    public static func read(path: String) throws -> QuoteBook {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MorningProofError.noInput("\(path): no such quotes file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MorningProofError.ioError("\(path): cannot read the quotes file")
        }
        return try QuoteBook.parse(data, name: path)
    }

    /// The quotes in force.
    public static func load(_ database: any SettingsStore) async throws -> QuoteBook {
        guard let path = try await database.setting(SettingKey.quotesFile) else { return try QuoteBook.builtIn() }
        if let set = BuiltInQuotes(rawValue: path) { return try QuoteBook.builtIn(set) }
        return try read(path: path)
    }

    /// The quotes in force, or the built-in set with the reason when the file went bad, so a broken
    /// quotes file never keeps the gate from answering.
    public static func loadForGate(_ database: any SettingsStore) async throws -> (book: QuoteBook, problem: String?) {
        do {
            return (try await load(database), nil)
        } catch {
            return (try QuoteBook.builtIn(), "\(error); showing the built-in quotes")
        }
    }

    /// `config set quotes.file`: an absolute path to a file that parses, `builtin` or `builtin-general`.
    /// A relative path is taken from the current directory.
    public static func checkSetting(_ value: String) throws -> String {
        if BuiltInQuotes(rawValue: value) != nil { return value }
        let path = value.hasPrefix("/") ? value : FileManager.default.currentDirectoryPath + "/" + value
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        _ = try read(path: standardized)
        return standardized
    }
}

/// The windows of one calendar date so far, each with its quote.
public struct QuoteHistory: Sendable {
    public var day: LocalDay
    public var book: QuoteBook
    public var slots: [QuoteSchedule.Slot]
}

extension QuoteSource {
    /// Every window of a date up to `now` (`QuoteSchedule.history`), with the quotes in force. The
    /// date is a calendar date named as a person would (`LocalDay.resolve`, nil: today), relative to
    /// the wall-clock date at `now`; a later date is refused.
    public static func history(_ database: any SettingsStore, clock: DayClock, date: String?, now: Date) async throws
        -> QuoteHistory
    {
        let book = try await load(database)
        let today = clock.wallClock(at: now).date
        let day = try date.map { try LocalDay.resolve($0, today: today) } ?? today
        guard day <= today else { throw MorningProofError.usage("\(day) is in the future (today is \(today))") }
        return QuoteHistory(day: day, book: book, slots: book.schedule.history(of: day, until: now, clock: clock))
    }
}
