import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Observer
import Testing
import MorningProofService

/// Daily totals a test sets by hand, standing in for the files HealthMetrics reads.
final class FakeTotals: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Double] = [:]
    private var touched: Set<LocalDay> = []

    func set(_ metric: String, _ day: LocalDay, _ value: Double) {
        lock.withLock {
            values["\(metric) \(day)"] = value
            touched.insert(day)
        }
    }

    var sources: MetricSources {
        MetricSources(
            scanChanged: { [self] in
                lock.withLock {
                    defer { touched = [] }
                    return MetricSources.Scan(filesRead: touched.isEmpty ? 0 : 1, daysTouched: touched)
                }
            },
            value: { [self] metric, day, _ in lock.withLock { values["\(metric) \(day)"] } })
    }
}

struct ObserverFixture {
    let database: AppDatabase
    let clock = DayClock(zoneIdentifier: "America/New_York")!
    let totals = FakeTotals()
    let today = LocalDay("2026-03-10")!

    init() throws { database = try AppDatabase.inMemory() }

    /// An instant on `today` (plus `days`) at local wall-clock `hh:mm`.
    func at(_ hour: Int, _ minute: Int = 0, days: Int = 0) -> Date {
        clock.instant(on: today.adding(days: days), secondsAfterMidnight: hour * 3600 + minute * 60)
    }

    func addHabit(_ name: String, goal: MetricGoal? = nil, remindAt: Int? = nil) async throws -> Habit {
        try await database.addHabit(
            Habit(
                name: name, kind: goal == nil ? .manual : .metric, remindAt: remindAt, goal: goal,
                createdDay: today.adding(days: -3), createdAt: at(6, days: -3)))
    }

    /// A pass; `realTime` stands in for the clock of claim leases and retry back-off.
    func pass(hook: HookRunner? = nil, realTime: @escaping @Sendable () -> Date = { Date() }) -> CheckPass {
        CheckPass(database: database, clock: clock, sources: totals.sources, hook: hook, realTime: realTime)
    }
}

@Suite struct CheckPassTests {
    @Test func goalMetRecordsADoneEntryAndOneEvent() async throws {
        let f = try ObserverFixture()
        let walk = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today, 5000)
        await #expect(try f.pass().run(at: f.at(12)).isQuiet)
        await #expect(try f.database.entry(habitID: walk.id, day: f.today) == nil)

        f.totals.set("steps", f.today, 8412)
        var emitted: [NotificationEvent] = []
        let report = try await f.pass().run(at: f.at(18)) { emitted.append($0) }
        #expect(emitted.map(\.event) == [.goalMet])
        #expect(emitted.first?.value == 8412)
        #expect(emitted.first?.message == "Walk: 8,412 steps today, goal at least 8,000 steps met.")
        #expect(report.completed == ["Walk 2026-03-10"])
        let entry = try await #require(try f.database.entry(habitID: walk.id, day: f.today))
        #expect(entry.status == .done && entry.source == .metric && entry.value == 8412)

        f.totals.set("steps", f.today, 9000)
        await #expect(try f.pass().run(at: f.at(19)).isQuiet)
        await #expect(try f.database.notifications(since: f.today).count == 1)
    }

    @Test func aManualEntryWins() async throws {
        let f = try ObserverFixture()
        let walk = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        try await f.database.record(
            Entry(habitID: walk.id, day: f.today, status: .skipped, note: "sick", recordedAt: f.at(8), zone: "UTC"))
        f.totals.set("steps", f.today, 12000)
        let report = try await f.pass().run(at: f.at(20))
        #expect(report.completed.isEmpty)
        let entry = try await #require(try f.database.entry(habitID: walk.id, day: f.today))
        #expect(entry.status == .skipped && entry.source == .manual && entry.note == "sick")
    }

    @Test func anAtMostGoalIsJudgedOnceItsDayIsOver() async throws {
        let f = try ObserverFixture()
        let rest = try await f.addHabit("Rest", goal: MetricGoal(metric: "workoutMinutes", comparison: .atMost, target: 30))
        f.totals.set("workoutMinutes", f.today, 10)
        await #expect(try f.pass().run(at: f.at(23, 50)).isQuiet)
        await #expect(try f.database.entry(habitID: rest.id, day: f.today) == nil)

        var emitted: [NotificationEvent] = []
        _ = try await f.pass().run(at: f.at(0, 10, days: 1)) { emitted.append($0) }
        #expect(emitted.map(\.day) == ["2026-03-10"])
        await #expect(try f.database.entry(habitID: rest.id, day: f.today)?.status == .done)
    }

    @Test func anAtMostGoalOverItsLimitIsNotDone() async throws {
        let f = try ObserverFixture()
        let rest = try await f.addHabit("Rest", goal: MetricGoal(metric: "workoutMinutes", comparison: .atMost, target: 30))
        f.totals.set("workoutMinutes", f.today, 45)
        await #expect(try f.pass().run(at: f.at(9, days: 1)).isQuiet)
        await #expect(try f.database.entry(habitID: rest.id, day: f.today) == nil)
    }

    @Test func aLimitCountsADayWithDataButNoneOfItsMetricAsZero() async throws {
        let f = try ObserverFixture()
        let rest = try await f.addHabit("Rest", goal: MetricGoal(metric: "workoutMinutes", comparison: .atMost, target: 20))
        let yesterday = f.today.adding(days: -1)
        // Nothing at all for yesterday yet: not judged.
        await #expect(try f.pass().run(at: f.at(9)).isQuiet)
        // Steps arrive for yesterday, still no workout: the limit was kept.
        f.totals.set("steps", yesterday, 4000)
        let report = try await f.pass().run(at: f.at(10))
        #expect(report.completed == ["Rest 2026-03-09"])
        await #expect(try f.database.entry(habitID: rest.id, day: yesterday)?.value == 0)
    }

    @Test func oldDaysAreCompletedWithoutNotifying() async throws {
        let f = try ObserverFixture()
        let walk = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today.adding(days: -3), 9000)
        var emitted: [NotificationEvent] = []
        let report = try await f.pass().run(at: f.at(12)) { emitted.append($0) }
        #expect(emitted.isEmpty)
        #expect(report.completed == ["Walk 2026-03-07"])
        await #expect(try f.database.entry(habitID: walk.id, day: f.today.adding(days: -3))?.source == .metric)
    }

    @Test func remindsOnceAtTheReminderTimeWhenNotDone() async throws {
        let f = try ObserverFixture()
        let meditate = try await f.addHabit("Meditate", remindAt: 7 * 60 + 30)
        let stretch = try await f.addHabit("Stretch", remindAt: 7 * 60 + 30)
        try await f.database.record(Entry(habitID: stretch.id, day: f.today, status: .done, recordedAt: f.at(7), zone: "UTC"))
        await #expect(try f.pass().run(at: f.at(7, 29)).isQuiet)
        var emitted: [NotificationEvent] = []
        _ = try await f.pass().run(at: f.at(7, 31)) { emitted.append($0) }
        #expect(emitted.map(\.habit) == ["Meditate"])
        #expect(emitted.first?.event == .reminder)
        await #expect(try f.pass().run(at: f.at(9)).isQuiet)
        // The next day reminds again, unless done first.
        try await f.database.record(
            Entry(
                habitID: meditate.id, day: f.today.adding(days: 1), status: .done, recordedAt: f.at(7, days: 1),
                zone: "UTC"))
        emitted = []
        _ = try await f.pass().run(at: f.at(8, days: 1)) { emitted.append($0) }
        #expect(emitted.map(\.habit) == ["Stretch"])
    }
}
