import MorningProofCore
import MorningProofStore

/// The checks on the clock settings, with one wording for `config set` and the server's profile.
public enum ClockSettings {
    /// An IANA zone name, as given; offsets, abbreviations and unknown names are refused with the
    /// closest name suggested.
    public static func timeZone(_ text: String) throws -> String {
        if let problem = ZoneNames.problem(with: text) { throw MorningProofError.usage(problem) }
        return text
    }

    /// `HH:MM` from 00:00 to 12:00, as minutes after midnight.
    public static func dayStart(_ text: String) throws -> Int {
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: ":") || (48...57).contains($0) }),
            let minutes = parseClockTime(text, range: 0...720)
        else {
            throw MorningProofError.usage("bad day-start \"\(text)\": use HH:MM from 00:00 to 12:00")
        }
        return minutes
    }

    /// A weekday name or its first three letters, as 1 (Monday) to 7 (Sunday).
    public static func weekStart(_ text: String) throws -> Int {
        guard let day = Weekday.number(of: text) else {
            throw MorningProofError.usage("bad week-start \"\(text)\": use a weekday such as monday or sunday")
        }
        return day
    }
}
