import Foundation

/// ISO 8601 instants as every front end prints and reads them.
public enum ISOInstant {
    /// `2026-03-08T07:30:00-05:00` (or `...Z` in UTC): the instant's wall time in `zone`, with its offset.
    /// By hand, as `ISO8601DateFormatter` writes it: making that formatter (ICU) cost a quarter of
    /// the server's time for a daily update.
    public static func format(_ date: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let dayNumber = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let time = local - dayNumber * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(LocalDay(dayNumber: dayNumber))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
        if offset == 0 { return text + "Z" }
        let size = abs(offset)
        text += (offset < 0 ? "-" : "+") + two(size / 3600) + ":" + two(size / 60 % 60)
        return size % 60 == 0 ? text : text + ":" + two(size % 60)
    }

    /// The instants MorningProof accepts: those of the days in `LocalDay.supported`, in UTC. In any
    /// zone (and with any day start) their local day and its neighbours stay nameable days.
    public static let supported =
        Date(
            timeIntervalSince1970: Double(LocalDay.supported.lowerBound.dayNumber) * 86_400)..<Date(
            timeIntervalSince1970: Double(LocalDay.supported.upperBound.dayNumber + 1) * 86_400)

    /// An instant a person, a client or a file gave as `field` (`--now`): a usage error, naming the
    /// field, for text that is not one and for an instant outside `supported`.
    public static func read(_ text: String, field: String) throws -> Date {
        guard let date = parseAnyYear(text) else {
            throw MorningProofError.usage(
                "\(field) needs an ISO 8601 instant with an offset or Z, such as 2026-03-08T07:30:00-05:00, not \"\(text)\""
            )
        }
        guard supported.contains(date) else {
            throw MorningProofError.usage(
                "\(field) \(text) is outside the supported instants, years 1900 to 9998 (UTC)")
        }
        return date
    }

    /// An action's instant as a client sends it (`at`, the spec's `ActionInstant`): `read`'s grammar
    /// narrowed to the spec's pattern, a usage error naming `field` for anything outside it: seconds
    /// 00 to 59 (no leap second), 1 to 6 fraction digits after a `.`, an offset written `±HH:MM`, and
    /// a local year from 1901 to 9997 (so that the instant is supported whatever its offset).
    public static func readAction(_ text: String, field: String) throws -> Date {
        guard let date = parseAnyYear(text, asAction: true) else {
            let shown = text.count > 40 ? "\(text.prefix(40))…" : text
            throw MorningProofError.usage(
                "\(field) needs an instant as YYYY-MM-DDTHH:MM[:SS[.ffffff]] (years 1901 to 9997, seconds to 59) "
                    + "with Z or an offset ±HH:MM, such as 2026-03-08T07:30:00-05:00, not \"\(shown)\"")
        }
        return date
    }

    /// Parses `2026-03-08T07:30:00-05:00`, `2026-03-08T12:30Z`, `2026-03-08T12:30:00.250+0100`;
    /// nil for anything else, and for an instant outside `supported`.
    public static func parse(_ text: String) -> Date? {
        parseAnyYear(text).flatMap { supported.contains($0) ? $0 : nil }
    }

    /// The instant in `text`, whatever its year. By hand: a date formatter would load ICU on every
    /// command that takes --now. `asAction`: only what the spec's `ActionInstant` pattern allows.
    private static func parseAnyYear(_ text: String, asAction: Bool = false) -> Date? {
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
            let date = LocalDay(year: year, month: month, day: day),
            !asAction || (1901...9997).contains(year)
        else { return nil }
        i += 1
        guard let hour = digits(2), hour < 24, expect(":"), let minute = digits(2), minute < 60 else { return nil }
        var seconds = 0.0
        if expect(":") {
            guard let whole = digits(2), whole < (asAction ? 60 : 61) else { return nil }
            seconds = Double(whole)
            if expect(".") || (!asAction && expect(",")) {
                var scale = 0.1
                var count = 0
                while i < b.count, b[i] >= 48 && b[i] <= 57 {
                    seconds += Double(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                    count += 1
                }
                guard count > 0, !asAction || count <= 6 else { return nil }
            }
        }
        var offset = 0
        if expect("Z") || expect("z") {
            offset = 0
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hours = digits(2), hours <= 18 else { return nil }
            guard expect(":") || !asAction, let minutes = digits(2), minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let local = Double(date.dayNumber * 86_400 + hour * 3600 + minute * 60) + seconds
        return Date(timeIntervalSince1970: local - Double(offset))
    }
}
