import Foundation

/// One source's total of one cumulative metric on one day, as stored (the largest of its origins).
public struct SourceDayTotal: Sendable, Equatable {
    public var metric: String
    public var day: LocalDay
    public var source: String
    public var value: Double

    public init(metric: String, day: LocalDay, source: String, value: Double) {
        self.metric = metric
        self.day = day
        self.source = source
        self.value = value
    }
}

/// The daily-total rules: which stored numbers make a day's value of each metric. Pure functions
/// over rows; a store fetches the rows and applies these.
public enum MetricTotalRules {
    /// The source priority setting (comma-separated parts of source names) as lowercase names.
    public static func priority(from setting: String?) -> [String] {
        (setting ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The day's value from per-source sums: the first source in `priority` with data, else the largest.
    public static func pick(_ sources: [(name: String, value: Double)], priority: [String]) -> Double {
        for wanted in priority {
            let matching = sources.filter { $0.name.lowercased().contains(wanted) }
            if let best = matching.map(\.value).max() { return best }
        }
        return sources.map(\.value).max() ?? 0
    }

    /// Cumulative metrics per day: the source `pick` chooses; a source's day above the metric's
    /// ceiling is corrupt or mistyped and never counts.
    public static func cumulative(_ totals: [SourceDayTotal], priority: [String]) -> [LocalDay: [String: Double]] {
        var bySource: [LocalDay: [String: [(String, Double)]]] = [:]
        for total in totals {
            if let metric = HealthMetric(rawValue: total.metric), total.value > metric.maximumPerDay { continue }
            bySource[total.day, default: [:]][total.metric, default: []].append((total.source, total.value))
        }
        return bySource.mapValues { metrics in metrics.mapValues { pick($0, priority: priority) } }
    }

    /// The stored totals on `days` above their metric's ceiling (`HealthMetric.maximumPerDay`): the
    /// ones `cumulative` leaves out.
    public static func aboveCeiling(_ totals: [SourceDayTotal], on days: Set<LocalDay>)
        -> [(metric: HealthMetric, total: SourceDayTotal)]
    {
        totals.compactMap { total in
            guard let metric = HealthMetric(rawValue: total.metric), days.contains(total.day),
                total.value > metric.maximumPerDay
            else { return nil }
            return (metric, total)
        }
    }

    /// Workouts per day, from workout rows in any order; the same workout recorded by two sources
    /// (overlapping by more than half of the shorter) counts once, with the longer duration.
    /// `activity` keeps only workouts of that kind (`ActivityNames.matches`). Rows are taken by day
    /// and start, then by the rest of the row: which workout a later one is matched with must not
    /// depend on the order a database returns rows that start at the same instant.
    public static func workouts(_ rows: [MetricIntervalRow], activity: String?) -> [LocalDay: (
        count: Int, minutes: Double
    )] {
        var kept: [LocalDay: [MetricIntervalRow]] = [:]
        for workout in rows.sorted(by: startsFirst) where workout.kind == .workout {
            if let activity, !ActivityNames.matches(workout.activity, filter: activity) { continue }
            if workout.minutes > HealthMetric.workoutMinutes.maximumPerDay { continue }
            var list = kept[workout.day, default: []]
            if let index = list.firstIndex(where: { isSameWorkout($0, workout) }) {
                if workout.minutes > list[index].minutes { list[index] = workout }
            } else {
                list.append(workout)
            }
            kept[workout.day] = list
        }
        return kept.mapValues { (count: $0.count, minutes: $0.reduce(0) { $0 + $1.minutes }) }
    }

    /// Day, start, end, source, activity, minutes: one order for any rows.
    private static func startsFirst(_ a: MetricIntervalRow, _ b: MetricIntervalRow) -> Bool {
        (a.day, a.start, a.end, a.source, a.activity, a.minutes)
            < (b.day, b.start, b.end, b.source, b.activity, b.minutes)
    }

    private static func isSameWorkout(_ a: MetricIntervalRow, _ b: MetricIntervalRow) -> Bool {
        guard a.source != b.source else { return false }
        let overlap = min(a.end, b.end) - max(a.start, b.start)
        let shorter = min(a.end - a.start, b.end - b.start)
        return shorter > 0 && overlap > shorter / 2
    }

    /// Minutes asleep credited to each day from `from` through `to`: each night (the union of asleep
    /// intervals of all sources, split on gaps of 4 hours or more) counts whole for the day of its
    /// last asleep instant; a night given only as a total counts when it is larger. `intervals(a, b)`
    /// gives the asleep intervals stored with end days `a` through `b`; it is asked again for earlier
    /// days while a night counted in range reaches back to the edge of what was read.
    ///
    /// Two bounds keep the reads to the days asked for, whatever the history holds. A day whose
    /// minutes are already above `ceiling` is not read further back for: more intervals only add
    /// to a night, and a day above the ceiling never counts (`withoutImpossibleValues`). A night
    /// still open `lookBackDays` days before `from` is no night anyone slept (hundreds of short
    /// intervals with gaps under 4 hours): it counts for no day. Without them (the defaults), a
    /// night is read back to its start.
    public static func sleepMinutes(
        from: LocalDay, to: LocalDay, totals: [(day: LocalDay, minutes: Double)], ceiling: Double = .infinity,
        lookBackDays: Int? = nil, intervals: (LocalDay, LocalDay) throws -> [SleepNights.Interval]
    ) rethrows -> [LocalDay: Double] {
        // Intervals are stored with the day of their end. One ending after `to + 2` starts at least
        // 22 hours after `to` ends (intervals last at most 24 hours), so it cannot join a night
        // ending by `to`. Below, widen while a night counted in range reaches the window's edge.
        let upper = to.adding(days: 2)
        var lower = from.adding(days: -3)
        var read = try intervals(lower, upper)
        var counted: [LocalDay: Double] = [:]
        while true {
            let nights = SleepNights.nights(read).filter { $0.day >= from && $0.day <= to }
            counted = [:]
            for night in nights { counted[night.day, default: 0] += night.minutes }
            let open = nights.filter { $0.firstDay <= lower.adding(days: 1) && counted[$0.day] ?? 0 <= ceiling }
            guard !open.isEmpty else { break }
            if let lookBackDays, lower <= from.adding(days: -lookBackDays) {
                counted = [:]
                for night in nights where !open.contains(night) { counted[night.day, default: 0] += night.minutes }
                break
            }
            let wider = lower.adding(days: -7)
            let more = try intervals(wider, lower.adding(days: -1))
            if more.isEmpty { break }
            read += more
            lower = wider
        }
        for total in totals where total.day >= from && total.day <= to {
            counted[total.day] = max(counted[total.day] ?? 0, total.minutes)
        }
        return counted
    }

    /// The end days of every asleep interval `sleepMinutes` may ask for with `lookBackDays`: the
    /// first read, and each week it widens by until it is `lookBackDays` before `from`.
    public static func sleepReadDays(from: LocalDay, to: LocalDay, lookBackDays: Int) -> ClosedRange<LocalDay> {
        var lower = from.adding(days: -3)
        while lower > from.adding(days: -lookBackDays) { lower = lower.adding(days: -7) }
        return lower...max(lower, to.adding(days: 2))
    }

    /// Removes values no day can hold (sleep and workouts are not per source, so such a day does not
    /// count at all), and days left empty.
    public static func withoutImpossibleValues(_ days: [LocalDay: [String: Double]]) -> [LocalDay: [String: Double]] {
        var result = days
        for (day, values) in days {
            for (name, value) in values where value > (HealthMetric(rawValue: name)?.maximumPerDay ?? .infinity) {
                result[day]?[name] = nil
            }
            if result[day]?.isEmpty == true { result[day] = nil }
        }
        return result
    }
}
