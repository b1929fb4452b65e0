import Foundation
import MorningProofCore
import Testing

/// The nights of a range are read from that range's days, whatever the history holds (issue 38,
/// point 4: a 10-day read after 443,000 unbroken intervals read them all, a week at a time).
@Suite("Sleep read bound")
struct SleepReadBoundTests {
    let from = LocalDay("2026-03-05")!
    let to = LocalDay("2026-03-10")!
    static let clock = DayClock(zoneIdentifier: "UTC")!
    static let runEnd = 1_772_870_400.0  // 2026-03-07 08:00 UTC

    /// Rows held in memory, counting what the rules ask for and what they are given.
    final class CountingRows: MetricRowReader {
        let intervals: [SleepNights.Interval]
        var read = 0
        var earliestAsked: LocalDay?

        init(_ intervals: [SleepNights.Interval]) { self.intervals = intervals }

        func sourceTotals(from: LocalDay, to: LocalDay, metrics: [String]?) -> [SourceDayTotal] { [] }
        func sleepTotals(from: LocalDay, to: LocalDay) -> [(day: LocalDay, minutes: Double)] { [] }
        func workouts(from: LocalDay, to: LocalDay) -> [MetricIntervalRow] { [] }
        func asleepIntervals(from: LocalDay, to: LocalDay) -> [SleepNights.Interval] {
            earliestAsked = min(earliestAsked ?? from, from)
            let rows = intervals.filter { $0.endDay >= from && $0.endDay <= to }
            read += rows.count
            return rows
        }
    }

    static func asleep(_ start: Double, minutes: Double) -> SleepNights.Interval {
        let end = start + minutes * 60
        return SleepNights.Interval(start: start, end: end, endDay: clock.day(at: Date(timeIntervalSince1970: end)))
    }

    /// 100,000 ten-minute intervals one after another ending on the 7th at 08:00 (one "night" of
    /// 694 days), then three nights of 480 minutes ending on the 8th, 9th and 10th.
    static let history: [SleepNights.Interval] =
        (0..<100_000).map { asleep(runEnd - Double($0 + 1) * 600, minutes: 10) }
        + (0..<3).map { asleep(runEnd + 15 * 3_600 + Double($0) * 86_400, minutes: 480) }

    func sleep(_ rows: CountingRows) throws -> [LocalDay: Double] {
        try MetricTotalRules.days([.sleep], from: from, to: to, activity: nil, priority: [], rows: rows)
            .compactMapValues { $0["sleep"] }
    }

    @Test("a range's nights read only the weeks before it, and equal those of its days alone")
    func unbrokenHistory() throws {
        let all = CountingRows(Self.history)
        let minutes = try sleep(all)
        let alone = try sleep(CountingRows(Self.history.filter { $0.endDay >= from && $0.endDay <= to }))
        #expect(minutes == alone)
        #expect(minutes == [LocalDay("2026-03-08")!: 480, LocalDay("2026-03-09")!: 480, LocalDay("2026-03-10")!: 480])
        let window = MetricTotalRules.sleepReadDays(from: from, to: to, lookBackDays: SleepNights.longestLookBackDays)
        #expect(window.lowerBound.days(to: from) <= 31)
        #expect(
            all.earliestAsked.map { $0 >= window.lowerBound } == true,
            "asked from \(String(describing: all.earliestAsked))")
        #expect(all.read <= (window.lowerBound.days(to: window.upperBound) + 1) * 144, "read \(all.read) of 100,003")
    }

    @Test("a 'night' of one-minute naps every 3.5 hours for 200 days counts for no day, and is not read to its start")
    func napsReachingBackMonths() throws {
        let naps = (0..<1_371).map { Self.asleep(Self.runEnd - Double($0) * 12_600 - 60, minutes: 1) }
        let rows = CountingRows(naps)
        #expect(try sleep(rows)[LocalDay("2026-03-07")!] == nil)
        #expect(rows.earliestAsked.map { $0.days(to: from) <= SleepNights.longestLookBackDays + 3 } == true)
        // A restless week still counts whole, as before.
        let week = CountingRows(Array(naps.prefix(48)))
        #expect(try sleep(week)[LocalDay("2026-03-07")!] == 48)
    }

    @Test("the rows of a range read at once give the totals the rules give reading as they go")
    func snapshotAgrees() throws {
        let rows = CountingRows(Self.history)
        let snapshot = try MetricRowSnapshot(from: from, to: to, priority: [], reading: rows)
        #expect(
            try snapshot.days()
                == MetricTotalRules.days(
                    HealthMetric.allCases, from: from, to: to, activity: nil, priority: [],
                    rows: CountingRows(Self.history)))
        #expect(snapshot.count == rows.read && snapshot.intervalDays.lowerBound == rows.earliestAsked)
        #expect(throws: MetricRowSnapshot.OutsideSnapshot.self) {
            try snapshot.asleepIntervals(from: from.adding(days: -60), to: from)
        }
        #expect(throws: MorningProofError.self) {
            try MetricRowSnapshot(from: to, to: from, priority: [], reading: rows)
        }
    }
}
