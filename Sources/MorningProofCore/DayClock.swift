import Foundation

/// The one answer to "what day is it?": maps an instant to the `LocalDay` it counts for.
/// Wall-clock time in an IANA zone, minus the day-start offset, so that 23- and 25-hour days,
/// and a day start inside a skipped or repeated hour, fall out of the wall-clock components.
public struct DayClock: Sendable, Equatable {
    public let timeZone: TimeZone
    /// Minutes after local midnight at which a day begins (0 to 720).
    public let dayStart: Int

    /// The zone's name as given: Foundation reports `UTC` as `GMT`, this keeps `UTC`.
    public let zoneIdentifier: String

    public init(timeZone: TimeZone, dayStart: Int = 0) {
        self.timeZone = timeZone
        self.dayStart = dayStart
        zoneIdentifier = timeZone.identifier
    }

    /// Creates a clock for an IANA zone name; nil when the name is unknown.
    public init?(zoneIdentifier: String, dayStart: Int = 0) {
        guard let zone = TimeZone(identifier: zoneIdentifier) else { return nil }
        self.timeZone = zone
        self.dayStart = dayStart
        self.zoneIdentifier = zoneIdentifier
    }

    /// The local wall-clock time of an instant: the calendar date and the seconds since its midnight.
    public func wallClock(at instant: Date) -> (date: LocalDay, seconds: Int) {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        let dayNumber = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (LocalDay(dayNumber: dayNumber), local - dayNumber * 86_400)
    }

    /// The day an instant counts for: the day `D` with `start(of: D) <= instant < start(of: D + 1)`.
    /// The wall clock gives the answer except in a repeated hour that holds the day start: there the
    /// day has begun at the first occurrence, although the wall shows an earlier time the second time.
    public func day(at instant: Date) -> LocalDay {
        let wall = wallClock(at: instant)
        let day = wall.seconds < dayStart * 60 ? wall.date.adding(days: -1) : wall.date
        // Away from any change of offset (a day and a half each side), the wall clock is right.
        let offset = timeZone.secondsFromGMT(for: instant)
        if timeZone.secondsFromGMT(for: instant.addingTimeInterval(-129_600)) == offset,
            timeZone.secondsFromGMT(for: instant.addingTimeInterval(129_600)) == offset
        {
            return day
        }
        var settled = day
        var steps = 0
        while steps < 3, instant < start(of: settled) { settled = settled.adding(days: -1); steps += 1 }
        while steps < 6, instant >= start(of: settled.adding(days: 1)) { settled = settled.adding(days: 1); steps += 1 }
        return settled
    }

    /// The first instant that counts for `day`: its wall-clock day start, or, when that wall
    /// time is skipped by a DST jump, the instant of the jump; when it is repeated, the first one.
    public func start(of day: LocalDay) -> Date {
        instant(on: day, secondsAfterMidnight: dayStart * 60)
    }

    /// The first instant at which the wall clock shows `secondsAfterMidnight` on `date`
    /// (or, inside a DST gap, the instant the clock jumps past it).
    public func instant(on date: LocalDay, secondsAfterMidnight: Int) -> Date {
        let wall = date.dayNumber * 86_400 + secondsAfterMidnight
        let before = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall - 86_400)))
        let after = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(wall + 86_400)))
        let candidates = Set([before, after]).map { wall - $0 }.sorted()
        for t in candidates where localSeconds(t) == wall {
            return Date(timeIntervalSince1970: TimeInterval(t))
        }
        // A gap: find the first instant whose wall time is at or past the wanted one.
        var low = candidates.first!, high = candidates.last!
        while low < high {
            let mid = low + (high - low) / 2
            if localSeconds(mid) >= wall { high = mid } else { low = mid + 1 }
        }
        return Date(timeIntervalSince1970: TimeInterval(low))
    }

    /// Length of a day in seconds (82,800 or 90,000 across a DST change).
    public func length(of day: LocalDay) -> TimeInterval {
        start(of: day.adding(days: 1)).timeIntervalSince(start(of: day))
    }

    private func localSeconds(_ t: Int) -> Int {
        t + timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
    }
}
