import Foundation

/// Calendar days that a zone skipped entirely, as Samoa (Pacific/Apia) skipped 2011-12-30 when it
/// moved west of the date line: no instant counts for them, so they neither break a streak nor
/// take an entry. Such a day needs the offset to jump forward by a whole day, which only a move
/// across the date line does.
extension DayClock {
    /// Whether `day` lasted no time at all in this clock's zone (with its day start).
    public func neverHappened(_ day: LocalDay) -> Bool {
        length(of: day) == 0
    }

    /// Refuses a day that never happened in this zone: "2011-12-30 did not happen in Pacific/Apia".
    public func checkHappened(_ day: LocalDay) throws {
        if neverHappened(day) {
            throw MorningProofError.usage("\(day) did not happen in \(zoneIdentifier)")
        }
    }

    /// The days from 1900 to 2100 that never happened in this zone (the tz database holds no later
    /// date line moves). The offset is read on the first of each year, then of each month of a
    /// year across which it rose by half a day or more (a date line move, never a DST change), and
    /// only such a month is looked at day by day: every process that judges streaks reads it.
    /// Remembered per zone and day start, so that a process scans a zone once.
    public func daysThatNeverHappened() -> Set<LocalDay> {
        let key = "\(zoneIdentifier)|\(dayStart)"
        if let known = MissingDayCache.shared.withLock({ $0[key] }) { return known }
        let found = scan()
        MissingDayCache.shared.withLock { $0[key] = found }
        return found
    }

    private func scan() -> Set<LocalDay> {
        var skipped: Set<LocalDay> = []
        for year in 1900..<2100 {
            let first = LocalDay(year: year, month: 1, day: 1)!
            let next = LocalDay(year: year + 1, month: 1, day: 1)!
            guard offset(at: next) - offset(at: first) >= 43_200 else { continue }
            var month = first
            while month < next {
                let following = month.endOfMonth.adding(days: 1)
                if offset(at: following) - offset(at: month) >= 43_200 {
                    for day in month.adding(days: -1).through(following.adding(days: 1)) where neverHappened(day) {
                        skipped.insert(day)
                    }
                }
                month = following
            }
        }
        return skipped
    }

    private func offset(at day: LocalDay) -> Int {
        timeZone.secondsFromGMT(for: Self.midnightUTC(day))
    }

    private static func midnightUTC(_ day: LocalDay) -> Date {
        Date(timeIntervalSince1970: TimeInterval(day.dayNumber) * 86_400)
    }
}

/// The skipped days found per zone and day start, so that each process scans a zone once.
enum MissingDayCache {
    static let shared = Locked<[String: Set<LocalDay>]>([:])
}

extension Sequence<ZoneChange> {
    /// The days a streak runs through without counting them: the travel days, and every day that
    /// never happened in `clock`'s zone or in a zone the account moved between.
    public func bridgedDays(clock: DayClock?) -> Set<LocalDay> {
        var days = travelDays
        var seen: Set<String> = []
        for zone in (clock.map { [$0] } ?? []) + flatMap({ [$0.from, $0.to] })
        where seen.insert("\(zone.zoneIdentifier)|\(zone.dayStart)").inserted {
            days.formUnion(zone.daysThatNeverHappened())
        }
        return days
    }
}
