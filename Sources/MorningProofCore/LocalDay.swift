import Foundation

/// A calendar date with no time zone, such as 2026-03-08: the day an entry counts for.
/// Arithmetic runs on a day number (days since 1970-01-01), so it never meets a clock or a zone.
public struct LocalDay: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a day; returns nil for dates that do not exist (2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= LocalDay.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day with this number of days since 1970-01-01.
    public init(dayNumber: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// Parses `YYYY-MM-DD` (ASCII digits only), byte by byte: stored days are read by the thousand.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 10 else { return nil }
        var fields = (year: 0, month: 0, day: 0)
        for (index, byte) in text.utf8.enumerated() {
            if index == 4 || index == 7 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let digit = Int(byte) &- 48
            guard digit >= 0 && digit <= 9 else { return nil }
            switch index {
            case ..<4: fields.year = fields.year * 10 + digit
            case ..<7: fields.month = fields.month * 10 + digit
            default: fields.day = fields.day * 10 + digit
            }
        }
        self.init(year: fields.year, month: fields.month, day: fields.day)
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public func adding(days: Int) -> LocalDay { LocalDay(dayNumber: dayNumber + days) }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDay) -> Int { other.dayNumber - dayNumber }

    /// ISO weekday: 1 is Monday, 7 is Sunday.
    public var weekday: Int {
        let w = (dayNumber + 3) % 7  // 1970-01-01 was a Thursday (index 3 from Monday)
        return (w < 0 ? w + 7 : w) + 1
    }

    /// 1 for January 1st.
    public var dayOfYear: Int { dayNumber - LocalDay(year: year, month: 1, day: 1)!.dayNumber + 1 }

    /// The first day of the week holding this day, for weeks that start on `weekStart` (1 Monday ... 7 Sunday).
    public func startOfWeek(weekStart: Int) -> LocalDay {
        adding(days: -((weekday - weekStart + 7) % 7))
    }

    public var startOfMonth: LocalDay { LocalDay(year: year, month: month, day: 1)! }

    public var endOfMonth: LocalDay {
        LocalDay(year: year, month: month, day: LocalDay.daysInMonth(year: year, month: month))!
    }

    /// `YYYY-MM-DD`. Written byte by byte: reports and the stored state format thousands of days,
    /// and building it from `String(Int)` pieces was a sixth of `report --json`.
    public var description: String {
        if (0...9999).contains(year) {
            let (y, m, d) = (year, month, day)
            return String(unsafeUninitializedCapacity: 10) { bytes in
                func digit(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: 48 + value % 10) }
                (bytes[0], bytes[1], bytes[2], bytes[3]) = (digit(y / 1000), digit(y / 100), digit(y / 10), digit(y))
                (bytes[4], bytes[5], bytes[6]) = (45, digit(m / 10), digit(m))
                (bytes[7], bytes[8], bytes[9]) = (45, digit(d / 10), digit(d))
                return 10
            }
        }
        let y = String(year), m = String(month), d = String(day)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-"
            + (m.count < 2 ? "0" : "") + m + "-" + (d.count < 2 ? "0" : "") + d
    }

    public static func < (a: LocalDay, b: LocalDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a YYYY-MM-DD day: \(text)"))
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension LocalDay {
    /// Every day from `self` through `last`, inclusive; empty when `last` is earlier.
    public func through(_ last: LocalDay) -> [LocalDay] {
        let first = dayNumber
        let end = last.dayNumber
        return first <= end ? (first...end).map(LocalDay.init(dayNumber:)) : []
    }
}

extension LocalDay {
    /// The days MorningProof works with: 1900-01-01 through 9998-12-31. Outside them a day's
    /// neighbours (the day before 0001-01-01, the month of 10000-01-01) cannot be named, so a day or
    /// an instant from a person, a client or a file is refused there, never followed.
    public static let supported = LocalDay(year: 1900, month: 1, day: 1)!...LocalDay(year: 9998, month: 12, day: 31)!

    /// The supported range in words, for messages.
    public static let supportedWords = "1900-01-01 to 9998-12-31"

    /// Refuses a day outside `supported` (a usage error naming `field`).
    public static func checkSupported(_ day: LocalDay, field: String) throws {
        guard supported.contains(day) else {
            throw MorningProofError.usage("\(field) \(day) is outside the supported days, \(supportedWords)")
        }
    }

    /// A day as a person names it relative to `today`: `YYYY-MM-DD`, `today`, `yesterday` or `-N`
    /// (N days ago). Throws a usage error for anything else, and for a day outside `supported`.
    public static func resolve(_ text: String, today: LocalDay) throws -> LocalDay {
        let day: LocalDay
        switch text.lowercased() {
        case "today": day = today
        case "yesterday": day = today.adding(days: -1)
        default:
            if text.hasPrefix("-"), let back = Int(text.dropFirst()), back >= 0 {
                // Checked before the subtraction: -9223372036854775807 would overflow it.
                guard back <= supported.lowerBound.days(to: today) else {
                    throw MorningProofError.usage(
                        "date \"\(text)\" is before \(supported.lowerBound), the first supported day")
                }
                day = today.adding(days: -back)
            } else if let parsed = LocalDay(text) {
                day = parsed
            } else {
                throw MorningProofError.usage(
                    "bad date \"\(text)\": use YYYY-MM-DD (\(supportedWords)), today, yesterday or -N")
            }
        }
        try checkSupported(day, field: "date")
        return day
    }
}
