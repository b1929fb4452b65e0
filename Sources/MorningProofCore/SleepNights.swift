/// Groups asleep intervals into nights: the rule that gives a whole night to its wake day.
///
/// The union of all asleep intervals (every source) is split wherever 4 hours or more pass
/// without sleep; each part is a night, credited whole to the day of its last asleep instant.
/// A nap is a short night by the same rule: it counts for the day it ends.
public enum SleepNights {
    /// Seconds without sleep that separate two nights.
    public static let separatingGap: Double = 4 * 3600

    /// How many days before the first day asked the daily totals look for the start of a night
    /// (`MetricTotalRules.sleepMinutes`): a night still going further back counts for no day, so
    /// that a read costs what its days hold, never the whole history.
    public static let longestLookBackDays = 28

    /// One stored asleep interval: absolute seconds, and the local day its end falls on.
    public struct Interval: Sendable, Equatable {
        public var start: Double
        public var end: Double
        /// The day (configured zone and day start) of `end`, fixed when the interval was read.
        public var endDay: LocalDay

        public init(start: Double, end: Double, endDay: LocalDay) {
            self.start = start
            self.end = end
            self.endDay = endDay
        }
    }

    /// A night: its span, the seconds asleep in it (the union), and the day it counts for.
    public struct Night: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var asleepSeconds: Double
        /// The end day of the interval that ends last: the wake day.
        public var day: LocalDay
        /// The earliest end day among its intervals (to know whether a read window was wide enough).
        public var firstDay: LocalDay

        public var minutes: Double { asleepSeconds / 60 }
    }

    /// The nights the intervals make, in time order. Real elapsed seconds are counted, so a night
    /// across a DST change counts the hours that passed, not the wall-clock difference.
    public static func nights(_ intervals: [Interval]) -> [Night] {
        var nights: [Night] = []
        for interval in intervals.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) })
        where interval.end > interval.start {
            if var night = nights.last, interval.start - night.end < separatingGap {
                night.asleepSeconds += max(0, interval.end - max(interval.start, night.end))
                if interval.end > night.end {
                    night.end = interval.end
                    night.day = interval.endDay
                }
                night.firstDay = min(night.firstDay, interval.endDay)
                nights[nights.count - 1] = night
            } else {
                nights.append(
                    Night(
                        start: interval.start, end: interval.end, asleepSeconds: interval.end - interval.start,
                        day: interval.endDay, firstDay: interval.endDay))
            }
        }
        return nights
    }

    /// Minutes asleep credited to each day.
    public static func minutesByDay(_ intervals: [Interval]) -> [LocalDay: Double] {
        var result: [LocalDay: Double] = [:]
        for night in nights(intervals) { result[night.day, default: 0] += night.minutes }
        return result
    }
}
