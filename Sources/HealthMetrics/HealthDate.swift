import Foundation
import MorningProofCore

/// Dates as metric files write them, parsed by hand from bytes:
/// `2024-10-25 07:05:11 -0500` (Apple Health), `2024-10-25T07:05:11Z`, `2024-10-25T07:05:11.250+01:00`,
/// and a bare `2024-10-25` (a whole day).
public enum HealthDate {
    /// A parsed date: an instant, or a whole local day when the text had no time.
    public enum Parsed: Equatable, Sendable {
        case instant(Double)
        case day(LocalDay)
        /// A wall-clock time without an offset: local time in the user's zone.
        case wallClock(LocalDay, seconds: Double)

        /// Seconds since 1970, reading a wall-clock time or a day in `clock`'s zone (a day at its start).
        public func seconds(in clock: DayClock) -> Double {
            switch self {
            case .instant(let t): return t
            case .day(let day): return clock.start(of: day).timeIntervalSince1970
            case .wallClock(let day, let seconds):
                let whole = Int(seconds.rounded(.down))
                return clock.instant(on: day, secondsAfterMidnight: whole).timeIntervalSince1970 + seconds
                    - Double(whole)
            }
        }
    }

    /// Parses text; nil when it is not one of the known shapes.
    public static func parse(_ text: String) -> Parsed? {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// Seconds since 1970 of an instant written with a time; nil otherwise.
    public static func seconds(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if case .instant(let t) = parse(bytes) { return t }
        return nil
    }

    public static func parse(_ b: UnsafeRawBufferPointer) -> Parsed? {
        let n = b.count
        guard n >= 10 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int? {
            guard i < n else { return nil }
            let c = Int(b[i]) - 48
            return c >= 0 && c <= 9 ? c : nil
        }
        @inline(__always) func number(_ i: Int, _ count: Int) -> Int? {
            var value = 0
            for k in 0..<count {
                guard let d = digit(i + k) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D,
            let day = number(8, 2), let date = LocalDay(year: year, month: month, day: day)
        else { return nil }
        if n == 10 { return .day(date) }
        guard b[10] == 0x20 || b[10] == 0x54 || b[10] == 0x74, let hour = number(11, 2), n > 13, b[13] == 0x3A,
            let minute = number(14, 2)
        else { return nil }
        var i = 16
        var second = 0.0
        if i < n, b[i] == 0x3A {
            guard let s = number(i + 1, 2) else { return nil }
            second = Double(s)
            i += 3
            if i < n, b[i] == 0x2E || b[i] == 0x2C {
                i += 1
                var scale = 0.1
                while let d = digit(i) {
                    second += Double(d) * scale
                    scale /= 10
                    i += 1
                }
            }
        }
        while i < n, b[i] == 0x20 { i += 1 }
        guard hour < 24, minute < 60, second < 61 else { return nil }
        let local = Double(date.dayNumber * 86_400 + hour * 3600 + minute * 60) + second
        guard i < n else { return .wallClock(date, seconds: local - Double(date.dayNumber * 86_400)) }
        if b[i] == 0x5A || b[i] == 0x7A { return i + 1 == n ? .instant(local) : nil }
        guard b[i] == 0x2B || b[i] == 0x2D, let oh = number(i + 1, 2) else { return nil }
        var j = i + 3
        if j < n, b[j] == 0x3A { j += 1 }
        let om = number(j, 2) ?? 0
        if number(j, 2) != nil { j += 2 }
        guard j == n else { return nil }
        let offset = (oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
        return .instant(local - Double(offset))
    }
}

/// Apple's `2024-10-25 07:05:11 -0500` in a hot loop: the calendar day of the last date is kept,
/// since consecutive records share it; anything else goes to `HealthDate`.
struct AppleDateParser {
    private var lastDay: (UInt64, UInt16) = (0, 0)
    private var lastDayNumber = 0

    mutating func seconds(_ b: UnsafeRawBufferPointer) -> Double? {
        guard b.count == 25, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20 else {
            return HealthDate.seconds(b)
        }
        let prefix = (b.loadUnaligned(as: UInt64.self), b.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        if prefix != lastDay {
            guard case .instant = HealthDate.parse(b), let day = LocalDay(String(decoding: b[0..<10], as: UTF8.self))
            else { return nil }
            lastDay = prefix
            lastDayNumber = day.dayNumber
        }
        @inline(__always) func two(_ i: Int) -> Int? {
            let a = Int(b[i]) &- 48, c = Int(b[i + 1]) &- 48
            return a >= 0 && a <= 9 && c >= 0 && c <= 9 ? a * 10 + c : nil
        }
        guard let hour = two(11), let minute = two(14), let second = two(17), let oh = two(21), let om = two(23),
            b[20] == 0x2B || b[20] == 0x2D
        else { return HealthDate.seconds(b) }
        let offset = (oh * 3600 + om * 60) * (b[20] == 0x2D ? -1 : 1)
        return Double(lastDayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset)
    }
}

/// `DayClock.day(at:)` for millions of instants: the zone's offset is looked up once per
/// quarter hour (zones change offset only on quarter hours) and cached.
struct FastDayClock {
    let clock: DayClock
    /// The offset over [validFrom, validUntil): a 6-hour span whose two ends agree (a zone never
    /// changes offset twice within 6 hours), else the quarter hour around the instant.
    private var validFrom = Int.max
    private var validUntil = Int.min
    private var lastOffset = 0

    private func zoneOffset(_ t: Int) -> Int {
        clock.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t)))
    }

    @inline(__always)
    private mutating func offset(at t: Int) -> Int {
        if t >= validFrom && t < validUntil { return lastOffset }
        let span = 21_600
        let start = t >= 0 ? t / span * span : (t - span + 1) / span * span
        let first = zoneOffset(start)
        if zoneOffset(start + span - 1) == first {
            validFrom = start
            validUntil = start + span
            lastOffset = first
        } else {
            // Offsets change on quarter hours.
            let quarter = t >= 0 ? t / 900 * 900 : (t - 899) / 900 * 900
            validFrom = quarter
            validUntil = quarter + 900
            lastOffset = zoneOffset(quarter)
        }
        return lastOffset
    }

    init(_ clock: DayClock) { self.clock = clock }

    /// The day an instant (seconds since 1970) counts for.
    mutating func day(at seconds: Double) -> LocalDay { LocalDay(dayNumber: dayNumber(at: seconds)) }

    mutating func dayNumber(at seconds: Double) -> Int {
        let t = Int(seconds.rounded(.down))
        let local = t + offset(at: t) - clock.dayStart * 60
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }
}
