import Foundation
import MorningProofCore

/// A sleep history that cost a read of a few days the whole history (issue 38, point 4): an
/// unbroken run of ten-minute asleep intervals, years long, that ends inside the days read, then
/// ordinary nights. Days are UTC days.
public enum LongSleepHistory {
    public static let clock = DayClock(zoneIdentifier: "UTC")!
    /// The days read.
    public static let from = LocalDay("2026-03-05")!
    public static let to = LocalDay("2026-03-10")!
    /// The end of the unbroken run: one "night" of years, far above the ceiling, for the 7th.
    public static let runEnd = 1_772_870_400.0  // 2026-03-07 08:00 UTC
    public static let source = "Sleep Logger"

    /// `count` ten-minute asleep intervals one after another, the last ending at `runEnd`; then the
    /// nights 23:00 to 07:00 (480 minutes) that end on the 8th, 9th and 10th.
    public static func intervals(count: Int) -> [MetricIntervalRow] {
        var rows = (0..<count).map { index in
            asleep(from: runEnd - Double(index + 1) * 600, minutes: 10)
        }
        for night in 0..<3 {
            rows.append(asleep(from: runEnd + 15 * 3_600 + Double(night) * 86_400, minutes: 480))
        }
        return rows
    }

    /// What every read of `from` through `to` answers, whatever came before: 480 minutes on the
    /// 8th, 9th and 10th; the run's day (the 7th) has no sleep that counts, nor do the 5th and 6th.
    public static let days: [LocalDay: [String: Double]] = [
        LocalDay("2026-03-08")!: ["sleep": 480], LocalDay("2026-03-09")!: ["sleep": 480],
        LocalDay("2026-03-10")!: ["sleep": 480],
    ]

    /// The most rows a read of `from` through `to` may touch: every interval of the days the night
    /// rule may look back on (`SleepNights.longestLookBackDays`) and of the range, 144 a day.
    public static var mostRowsRead: Int {
        let days = MetricTotalRules.sleepReadDays(
            from: from, to: to, lookBackDays: SleepNights.longestLookBackDays)
        return (days.lowerBound.days(to: days.upperBound) + 1) * 144
    }

    /// A batch of `rows` as the importer stores them.
    public static func batch(_ rows: [MetricIntervalRow]) -> MetricBatch {
        var batch = MetricBatch()
        batch.intervals = rows
        return batch
    }

    static func asleep(from start: Double, minutes: Double) -> MetricIntervalRow {
        let end = start + minutes * 60
        return MetricIntervalRow(
            kind: .sleep, source: source, start: start, end: end, activity: "", minutes: minutes,
            day: clock.day(at: Date(timeIntervalSince1970: end)))
    }
}
