import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// A judgement of many days (an export of years) reads each goal's values for all its days at once
/// and records the older days in one write, where it read and wrote per habit and day. It must
/// judge exactly as the day-by-day reading does.
@Suite struct GoalJudgeBatchTests {
    static let clock = DayClock(zoneIdentifier: "America/Chicago")!

    /// 60 days, 01-01 to 03-01, of steps (9,000 or 5,000), sleep on odd days, a 30-minute workout every third day.
    static let csv: String = {
        var lines = ["date,metric,value"]
        var day = LocalDay("2026-01-01")!
        for n in 0..<60 {
            lines.append("\(day),steps,\(n % 2 == 0 ? 9_000 : 5_000)")
            if n % 2 == 1 { lines.append("\(day),sleep,480") }
            if n % 3 == 0 { lines.append("\(day),workoutMinutes,30") }
            day = day.adding(days: 1)
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    static let goals = [
        ("Walk", MetricGoal(metric: "steps", comparison: .atLeast, target: 8_000)),
        ("Sleep", MetricGoal(metric: "sleep", comparison: .atLeast, target: 420)),
        ("Rest", MetricGoal(metric: "workoutMinutes", comparison: .atMost, target: 20)),
    ]

    /// Adds the habits (created before the data), a manual skip of Walk on 01-03 (it wins), the
    /// data, and judges on 03-01: by the store's batches, or day by day through `value`.
    static func judged(_ store: any PerAccountStore, dayByDay: Bool) async throws -> [String] {
        for (name, goal) in goals {
            let habit = try await store.addHabit(
                Habit(
                    name: name, kind: .metric, goal: goal, createdDay: LocalDay("2025-12-01")!,
                    createdAt: ISOInstant.parse("2025-12-01T08:00:00-06:00")!))
            if name == "Walk" {
                _ = try await store.record(
                    Entry(
                        habitID: habit.id, day: LocalDay("2026-01-03")!, status: .skipped, source: .manual,
                        recordedAt: ISOInstant.parse("2026-01-03T08:00:00-06:00")!, zone: clock.zoneIdentifier))
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString).csv").path
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try await MetricImporter(database: store, clock: clock).importFile(path)
        let values: GoalJudge.Values? =
            dayByDay
            ? .perDay { @Sendable metric, day, activity in
                try await store.metricValue(metric: metric, day: day, activity: activity)
            } : nil
        let judge = GoalJudge(store: store, clock: clock, values: values)
        let outcome = try await judge.judge(
            at: ISOInstant.parse("2026-03-01T12:00:00-06:00")!, realTime: Date(), delivery: .queued)
        var lines = outcome.completed.map { "\($0.habit) \($0.day) \($0.value) \($0.target)" }
        for habit in try await store.habits() {
            for entry in try await store.entries(habitID: habit.id) {
                lines.append("\(habit.name) \(entry.day) \(entry.status) \(entry.source) \(entry.value ?? -1)")
            }
        }
        return lines
    }

    @Test(arguments: Engine.available) func manyDaysAreJudgedAsDayByDay(engine: Engine) async throws {
        try await MetricAccountTests.withTwoAccounts(engine) { owner, ada in
            let byDay = try await Self.judged(owner, dayByDay: true)
            let batched = try await Self.judged(ada, dayByDay: false)
            #expect(batched == byDay)
            // Walk on the 30 days of 9,000 steps but its manual 01-03; Sleep on 30 nights; Rest on
            // the 40 days without a workout but today (a limit waits for its day's end): each
            // completed once, and the manual skip kept.
            #expect(batched.filter { $0.hasPrefix("Walk 2026") && $0.hasSuffix("8000.0") }.count == 29)
            #expect(batched.filter { $0.hasPrefix("Sleep 2026") && $0.hasSuffix("420.0") }.count == 30)
            #expect(batched.filter { $0.hasPrefix("Rest 2026") && $0.hasSuffix("20.0") }.count == 39)
            #expect(batched.contains("Walk 2026-01-03 skipped manual -1.0"))
        }
    }
}
