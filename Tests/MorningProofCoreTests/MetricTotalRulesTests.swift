import Foundation
import MorningProofCore
import Testing

@Suite("Metric total rules, over rows")
struct MetricTotalRulesTests {
    let day = LocalDay("2026-03-09")!

    @Test("a day's value: the first priority source with data, else the largest; impossible totals never count")
    func cumulative() {
        let totals = [
            SourceDayTotal(metric: "steps", day: day, source: "Ann's iPhone", value: 6_000),
            SourceDayTotal(metric: "steps", day: day, source: "Ann's Apple Watch", value: 9_000),
            SourceDayTotal(metric: "steps", day: day, source: "Broken scale", value: 5_000_000),
        ]
        #expect(MetricTotalRules.cumulative(totals, priority: [])[day]?["steps"] == 9_000)
        #expect(MetricTotalRules.cumulative(totals, priority: ["iphone"])[day]?["steps"] == 6_000)
        #expect(MetricTotalRules.priority(from: " iPhone , ,Watch") == ["iphone", "watch"])
        let above = MetricTotalRules.aboveCeiling(totals, on: [day])
        #expect(above.map(\.total.source) == ["Broken scale"])
        #expect(above.first?.metric == .steps)
        #expect(MetricTotalRules.aboveCeiling(totals, on: [day.adding(days: 1)]).isEmpty)
    }

    func workout(_ source: String, _ start: Double, _ minutes: Double, _ activity: String) -> MetricIntervalRow {
        MetricIntervalRow(
            kind: .workout, source: source, start: start, end: start + minutes * 60, activity: activity,
            minutes: minutes, day: day)
    }

    @Test("the same workout from two sources counts once, with the longer duration; activity filters")
    func workouts() {
        let rows = [
            workout("Watch", 1_000, 30, "running"), workout("Strava", 1_100, 32, "running"),
            workout("Watch", 20_000, 45, "cycling"),
        ]
        let all = MetricTotalRules.workouts(rows, activity: nil)[day]
        #expect(all?.count == 2)
        #expect(all?.minutes == 77)
        #expect(MetricTotalRules.workouts(rows, activity: "run")[day]?.count == 1)
    }

    @Test("workouts that start at one instant count the same in whatever order a database returns them")
    func workoutsInAnyOrder() {
        // The watch's run and walk and the ring's run: taken run, walk, ring, the ring's run would
        // replace the watch's and the walk stay apart (2 workouts, 150 minutes).
        let rows = [
            workout("Watch", 1_000, 10, "running"), workout("Watch", 1_000, 100, "walking"),
            workout("Ring", 1_000, 50, "running"),
        ]
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let counted = MetricTotalRules.workouts(order.map { rows[$0] }, activity: nil)[day]
            #expect(counted?.count == 1, "\(order)")
            #expect(counted?.minutes == 100, "\(order)")
        }
    }

    @Test("a night read in a narrow window is widened until it is whole; a larger given total wins")
    func sleepWidening() {
        // One long night of short intervals reaching 12 days back: the first read cannot see its start.
        let end = day.adding(days: 1)
        var intervals: [SleepNights.Interval] = []
        let wake = 1_773_057_600.0  // 2026-03-09 12:00 UTC, well inside the day
        for i in 0..<(12 * 24) {
            let stop = wake - Double(i) * 3_600
            let stopDay = day.adding(days: -(i / 24))
            intervals.append(SleepNights.Interval(start: stop - 3_000, end: stop, endDay: stopDay))
        }
        var asked: [(LocalDay, LocalDay)] = []
        let minutes = MetricTotalRules.sleepMinutes(from: day, to: day, totals: []) { first, last in
            asked.append((first, last))
            return intervals.filter { $0.endDay >= first && $0.endDay <= last }
        }
        #expect(asked.count > 1)
        #expect(minutes[day] == Double(intervals.count) * 50)
        let withTotal = MetricTotalRules.sleepMinutes(
            from: end, to: end, totals: [(day: end, minutes: 420)], intervals: { _, _ in [] })
        #expect(withTotal[end] == 420)
    }
}
