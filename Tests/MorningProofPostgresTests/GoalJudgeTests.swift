import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofPostgres
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Goals judged when metric data arrives (`MetricIngest`, `metrics import`, `check`), on both
/// engines: the account's own data only, the days the data changed, a manual entry winning, a
/// limit judged once its day is over, and one `goal.met` claim however many servers ingest.
@Suite struct GoalJudgeTests {
    static let chicago = DayClock(zoneIdentifier: "America/Chicago")!

    /// A file holding `text`, for `body`.
    static func withFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("goal-\(UUID().uuidString)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// Health Auto Export's running total of steps for `day` (Chicago), as its REST automation posts it.
    static func stepsSoFar(_ steps: Int, day: String = "2026-03-01") -> String {
        """
        {"data": {"metrics": [{"name": "step_count", "units": "count",
          "data": [{"qty": \(steps), "date": "\(day) 00:00:00 -0600", "source": "Ada's iPhone"}]}]}}
        """
    }

    static func instant(_ text: String) -> Date { ISOInstant.parse(text)! }

    static func walk(created: String = "2026-02-20") -> Habit {
        Habit(
            name: "Walk", kind: .metric, goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000),
            createdDay: LocalDay(created)!, createdAt: instant("2026-02-20T08:00:00-06:00"))
    }

    @Test(arguments: Engine.available) func anIngestCompletesTheAccountsGoalOnlyOnce(engine: Engine) async throws {
        try await MetricAccountTests.withTwoAccounts(engine) { owner, ada in
            let mine = try await ada.addHabit(Self.walk())
            let owners = try await owner.addHabit(Self.walk())
            let ingest = MetricIngest(store: ada, clock: Self.chicago)
            let noon = Self.instant("2026-03-01T12:00:00-06:00")
            let morning = try await Self.withFile(Self.stepsSoFar(5_000)) {
                try await ingest.ingest(file: $0, as: .healthAutoExport, now: noon)
            }
            #expect(morning.records == 1 && morning.completed.isEmpty)
            let later = try await Self.withFile(Self.stepsSoFar(8_412)) {
                try await ingest.ingest(file: $0, as: .healthAutoExport, now: noon.addingTimeInterval(3600))
            }
            #expect(later.completed == [CompletedGoal(habitID: mine.id, habit: "Walk", day: LocalDay("2026-03-01")!, value: 8_412, target: 8_000)])
            let again = try await Self.withFile(Self.stepsSoFar(8_412)) {
                try await ingest.ingest(file: $0, as: .healthAutoExport, now: noon.addingTimeInterval(7200))
            }
            #expect(again.duplicates == 1 && again.completed.isEmpty)
            let entry = try #require(try await ada.entry(habitID: mine.id, day: LocalDay("2026-03-01")!))
            #expect(entry.status == .done && entry.source == .metric && entry.value == 8_412)
            // One goal.met, queued for the pass; the owner's habit of the same name is untouched.
            let events = try await ada.notifications(since: LocalDay("2026-03-01")!)
            #expect(events.map(\.state) == [.claimed] && events.first?.attempts == 0)
            #expect(try await owner.entry(habitID: owners.id, day: LocalDay("2026-03-01")!) == nil)
            #expect(try await owner.notifications(since: LocalDay("2026-03-01")!).isEmpty)
        }
    }

    /// The night: 8 h of sleep ending on the morning of 02-27 in Chicago, imported on
    /// 03-01, completes a `--at-least 7h45m` habit for 02-27 (silently: older than yesterday).
    @Test(arguments: Engine.available) func pastDaysAnImportTouchesAreJudged(engine: Engine) async throws {
        try await MetricAccountTests.withTwoAccounts(engine) { _, ada in
            let sleep = try await ada.addHabit(
                Habit(
                    name: "Sleep", kind: .metric, goal: MetricGoal(metric: "sleep", comparison: .atLeast, target: 465),
                    createdDay: LocalDay("2026-02-20")!, createdAt: Self.instant("2026-02-20T08:00:00-06:00")))
            let csv = """
                start,end,metric,value,unit,source
                2026-02-26T22:30:00-06:00,2026-02-27T06:30:00-06:00,sleep,480,min,Ring
                """
            let report = try await Self.withFile(csv) {
                try await MetricIngest(store: ada, clock: Self.chicago).ingest(
                    file: $0, as: .csv, now: Self.instant("2026-03-01T09:00:00-06:00"))
            }
            #expect(report.completed.map(\.day) == [LocalDay("2026-02-27")!])
            #expect(try await ada.entry(habitID: sleep.id, day: LocalDay("2026-02-27")!)?.value == 480)
            #expect(try await ada.notifications(since: LocalDay("2026-02-20")!).isEmpty)
            #expect(try await ada.metricDaysToJudge().isEmpty)
        }
    }

    /// Forty days arriving at once: every day whose goal is met completes, oldest first, the older
    /// ones silently; a manual skip among them stays; only today and yesterday get an event.
    @Test(arguments: Engine.available) func weeksArrivingAtOnceCompleteEveryMetDay(engine: Engine) async throws {
        try await MetricAccountTests.withTwoAccounts(engine) { _, ada in
            let walk = try await ada.addHabit(Self.walk(created: "2026-01-01"))
            let first = LocalDay("2026-01-21")!
            _ = try await ada.record(
                Entry(
                    habitID: walk.id, day: first.adding(days: 2), status: .skipped, source: .manual,
                    recordedAt: Self.instant("2026-01-23T07:00:00-06:00"), zone: "America/Chicago"))
            var csv = "date,metric,value\n"
            for offset in 0..<40 { csv += "\(first.adding(days: offset)),steps,\(offset % 2 == 0 ? 9_000 : 5_000)\n" }
            let today = first.adding(days: 39)
            let report = try await Self.withFile(csv) {
                try await MetricIngest(store: ada, clock: Self.chicago).ingest(
                    file: $0, as: .csv, now: Self.chicago.instant(on: today, secondsAfterMidnight: 20 * 3600))
            }
            let expected = (0..<40).filter { $0 % 2 == 0 && $0 != 2 }.map { first.adding(days: $0) }
            #expect(report.completed.map(\.day) == expected)
            #expect(try await ada.entry(habitID: walk.id, day: first.adding(days: 2))?.status == .skipped)
            #expect(try await ada.entries(habitID: walk.id).count == 20)
            // Today (an odd day: 5,000) has no goal met; yesterday's is the one event.
            #expect(try await ada.notifications(since: first).map(\.day) == [today.adding(days: -1)])
        }
    }

    @Test(arguments: Engine.available) func aManualEntryWinsAndALimitWaitsForItsDayToEnd(engine: Engine) async throws {
        try await MetricAccountTests.withTwoAccounts(engine) { _, ada in
            let walk = try await ada.addHabit(Self.walk())
            let calm = try await ada.addHabit(
                Habit(
                    name: "Calm", kind: .metric, goal: MetricGoal(metric: "steps", comparison: .atMost, target: 20_000),
                    createdDay: LocalDay("2026-02-20")!, createdAt: Self.instant("2026-02-20T08:00:00-06:00")))
            let today = LocalDay("2026-03-01")!
            _ = try await ada.record(
                Entry(
                    habitID: walk.id, day: today, status: .skipped, source: .manual,
                    recordedAt: Self.instant("2026-03-01T07:00:00-06:00"), zone: "America/Chicago"))
            let report = try await Self.withFile(Self.stepsSoFar(9_000)) {
                try await MetricIngest(store: ada, clock: Self.chicago).ingest(
                    file: $0, as: .healthAutoExport, now: Self.instant("2026-03-01T20:00:00-06:00"))
            }
            #expect(report.completed.isEmpty)
            #expect(try await ada.entry(habitID: walk.id, day: today)?.status == .skipped)
            #expect(try await ada.entry(habitID: calm.id, day: today) == nil)
            // The next morning the limit's day is over: the next judgement completes it.
            let next = try await GoalJudge(store: ada, clock: Self.chicago).judge(
                at: Self.instant("2026-03-02T07:00:00-06:00"), realTime: Date(), delivery: .queued)
            #expect(next.completed.map(\.habit) == ["Calm"])
        }
    }

    /// Two servers on one PostgreSQL database ingest the same payload at the same instant: the
    /// entry is recorded once and the goal claimed once.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped)) func twoServersIngestingAtOnceClaimOnce()
        async throws
    {
        try await TestPostgres.withTwoServers { one, two in
            let ada = try await Fixture.account(one, "ada@example.com")
            _ = try await one.scoped(to: ada.id).addHabit(Self.walk())
            let now = Self.instant("2026-03-01T12:00:00-06:00")
            let reports = try await Self.withFile(Self.stepsSoFar(9_000)) { path in
                try await withThrowingTaskGroup(of: IngestReport.self) { group in
                    for store in [one, two, one, two] {
                        group.addTask {
                            try await MetricIngest(store: store.scoped(to: ada.id), clock: Self.chicago)
                                .ingest(file: path, as: .healthAutoExport, now: now)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(reports.flatMap(\.completed).count == 1)
            #expect(reports.map(\.records) == [1, 1, 1, 1])
            #expect(reports.reduce(0) { $0 + $1.duplicates } == 3)
            #expect(try await one.scoped(to: ada.id).notifications(since: LocalDay("2026-03-01")!).count == 1)
            #expect(try await one.scoped(to: ada.id).metricValue(metric: "steps", day: LocalDay("2026-03-01")!, activity: nil) == 9_000)
        }
    }
}
