import Foundation

/// The checks of setting values a person gives: each returns the value to store, or throws a usage
/// error that says what is wrong. Pure, apart from the zone names `ZoneNames` reads.
public enum SettingValues {
    /// An IANA zone name (never a fixed offset or an abbreviation), with the closest name suggested
    /// when it is not one (`ZoneNames.problem`): for `config set timezone` and the server's profile.
    public static func timeZone(_ value: String) throws -> String {
        if let problem = ZoneNames.problem(with: value) { throw MorningProofError(.usage, problem) }
        return value
    }

    /// When a day begins, `HH:MM` from 00:00 to 12:00, as minutes after midnight (digits only: no sign).
    public static func dayStart(_ value: String) throws -> Int {
        guard value.utf8.allSatisfy({ $0 == UInt8(ascii: ":") || (48...57).contains($0) }),
            let minutes = parseClockTime(value, range: 0...720)
        else {
            throw MorningProofError.usage("bad \(field: .dayStart, "\"\(value)\""): use HH:MM from 00:00 to 12:00")
        }
        return minutes
    }

    /// The first day of a calendar week, as its full lower-case name.
    public static func weekStart(_ value: String) throws -> String {
        Weekday.names[try weekStartNumber(value) - 1]
    }

    /// The first day of a calendar week, as 1 (Monday) to 7 (Sunday).
    public static func weekStartNumber(_ value: String) throws -> Int {
        guard let number = Weekday.number(of: value) else {
            throw MorningProofError.usage("bad week-start \"\(value)\": use a weekday such as monday or sunday")
        }
        return number
    }

    /// The check-in question: some words, trimmed.
    public static func checkinQuestion(_ value: String) throws -> String {
        let text = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !UserText.isBlank(text) else { throw MorningProofError.usage("checkin.question needs some words") }
        return text
    }

    /// A verse or saying for the block screen, trimmed; empty for none.
    public static func checkinVerse(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Suggestions separated by `;`, at least one.
    public static func checkinSuggestions(_ value: String) throws -> String {
        let suggestions = CheckinTexts.parseSuggestions(value)
        guard !suggestions.isEmpty else {
            throw MorningProofError.usage(
                "checkin.suggestions takes suggestions separated by ;, such as \"Pray; Read\"")
        }
        return CheckinTexts.joinSuggestions(suggestions)
    }

    /// Gate unlocks allowed in any 7 days: a whole number from 0 to 7 (`excusesPerWeek` by its alias).
    public static func unlocksPerWeek(_ value: String) throws -> String {
        try excusesPerWeek(value, key: "gate.unlocks-per-week")
    }

    /// Excuses allowed in any 7 days (`excuses.per-week`, or its alias `key`): a whole number from 0 to 7.
    public static func excusesPerWeek(_ value: String, key: String = "excuses.per-week") throws -> String {
        guard let number = Int(value), ExcuseBudget.perWeekLimits.contains(number) else {
            throw MorningProofError.usage("\(key) takes a whole number from 0 to 7, not \"\(value)\"")
        }
        return String(number)
    }

    /// Comma-separated parts of source names, such as `Watch,iPhone`: the first with data on a day wins.
    public static func sourcePriority(_ value: String) throws -> String {
        let names = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else {
            throw MorningProofError.usage("metrics.source-priority needs source names, such as \"Watch,iPhone\"")
        }
        return names.joined(separator: ",")
    }
}

/// Weekday names for `week-start`.
public enum Weekday {
    public static let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// 1 for Monday ... 7 for Sunday, from a name or its first three letters.
    public static func number(of text: String) -> Int? {
        let lower = text.lowercased()
        guard lower.count >= 3 else { return nil }
        return names.firstIndex { $0.hasPrefix(lower) }.map { $0 + 1 }
    }
}
