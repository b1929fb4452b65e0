import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Every account's metrics are its own, on both engines; a running total sent again counts by how
/// much it grew; the days a write changed are marked until a judgement clears them; a `goal.met`
/// queued by an ingest is taken over by the next pass.
@Suite struct MetricAccountTests {
    typealias M = MetricValueTests
    static let first = LocalDay("2026-05-01")!

    /// `body` with a new store of `engine`, as the owner, and the same store as a second account.
    static func withTwoAccounts<T: Sendable>(
        _ engine: Engine, _ body: (any PerAccountStore, any PerAccountStore) async throws -> T
    ) async throws -> T {
        switch engine {
        case .sqlite:
            let store = try AppDatabase.inMemory()
            let ada = try await Fixture.account(store, "ada@example.com")
            return try await body(store, store.scoped(to: ada.id))
        case .postgres:
            return try await TestPostgres.withStore { store in
                let ada = try await Fixture.account(store, "ada@example.com")
                return try await body(store, store.scoped(to: ada.id))
            }
        }
    }

    /// Steps so far today, as Health Auto Export sends them: one running total per day.
    static func stepsSoFar(_ value: Double, day: String = "2026-05-01") -> MetricBatch {
        let start = M.instant("\(day)T00:00")
        var batch = MetricBatch()
        batch.samples = [
            MetricSampleRow(
                metric: "steps", source: M.phone, start: start, end: start, value: value, day: LocalDay(day)!,
                isBucket: true)
        ]
        return batch
    }

    @Test(arguments: Engine.available) func eachAccountHasItsOwnMetrics(engine: Engine) async throws {
        try await Self.withTwoAccounts(engine) { owner, ada in
            _ = try await owner.storeMetrics(MetricImportStoreTests.morning, file: nil)
            #expect(try await ada.metricDayRange() == nil)
            #expect(try await ada.metricValue(metric: "steps", day: Self.first, activity: nil) == nil)
            // The same records are new to another account, and change nothing of the owner's.
            let outcome = try await ada.storeMetrics(MetricImportStoreTests.morning, file: nil)
            #expect(outcome.recordsStored == 5 && outcome.duplicatesSkipped == 2)
            _ = try await ada.storeMetrics(Self.stepsSoFar(4_000, day: "2026-05-03"), file: nil)
            #expect(try await owner.metricValue(metric: "steps", day: Self.first, activity: nil) == 5_000)
            #expect(try await owner.metricDayRange() == Self.first...LocalDay("2026-05-02")!)
            #expect(try await ada.metricDayRange() == Self.first...LocalDay("2026-05-03")!)
            #expect(try await owner.metricDaysToJudge().keys.sorted() == [Self.first, LocalDay("2026-05-02")!])
            #expect(try await ada.metricDaysToJudge().count == 3)
        }
    }

    @Test(arguments: Engine.available) func aRunningTotalSentAgainCountsItsLargestValue(engine: Engine) async throws {
        try await Self.withTwoAccounts(engine) { _, ada in
            let morning = try await ada.storeMetrics(Self.stepsSoFar(3_000), file: nil)
            #expect(morning.recordsStored == 1 && morning.daysTouched == [Self.first])
            let resent = try await ada.storeMetrics(Self.stepsSoFar(3_000), file: nil)
            #expect(resent.recordsStored == 0 && resent.duplicatesSkipped == 1 && resent.daysTouched.isEmpty)
            let noon = try await ada.storeMetrics(Self.stepsSoFar(5_000), file: nil)
            #expect(noon.recordsStored == 1 && noon.daysTouched == [Self.first])
            // A late resend of the morning's lower total changes nothing.
            _ = try await ada.storeMetrics(Self.stepsSoFar(3_000), file: nil)
            #expect(try await ada.metricValue(metric: "steps", day: Self.first, activity: nil) == 5_000)
        }
        // The union of the sends, stored at once, gives the same.
        try await Self.withTwoAccounts(engine) { _, ada in
            var union = Self.stepsSoFar(3_000)
            union.samples += Self.stepsSoFar(5_000).samples + Self.stepsSoFar(3_000).samples
            _ = try await ada.storeMetrics(union, file: nil)
            #expect(try await ada.metricValue(metric: "steps", day: Self.first, activity: nil) == 5_000)
        }
    }

    @Test(arguments: Engine.available) func aNightSentAgainWithMoreSleepKeepsTheLonger(engine: Engine) async throws {
        try await Self.withTwoAccounts(engine) { _, ada in
            func night(_ minutes: Double) -> MetricBatch {
                var batch = MetricBatch()
                let wake = M.instant("2026-05-01T00:00")
                batch.intervals = [
                    MetricIntervalRow(
                        kind: .sleepTotal, source: M.watch, start: wake, end: wake, minutes: minutes, day: Self.first)
                ]
                return batch
            }
            _ = try await ada.storeMetrics(night(360), file: nil)
            #expect(try await ada.storeMetrics(night(360), file: nil).duplicatesSkipped == 1)
            #expect(try await ada.storeMetrics(night(420), file: nil).recordsStored == 1)
            #expect(try await ada.storeMetrics(night(400), file: nil).recordsStored == 0)
            #expect(try await ada.metricValue(metric: "sleep", day: Self.first, activity: nil) == 420)
        }
    }

    @Test(arguments: Engine.available) func aJudgementClearsOnlyTheMarksItRead(engine: Engine) async throws {
        try await Self.withTwoAccounts(engine) { owner, ada in
            _ = try await ada.storeMetrics(Self.stepsSoFar(3_000), file: nil)
            _ = try await ada.storeMetrics(Self.stepsSoFar(100, day: "2026-05-02"), file: nil)
            let read = try await ada.metricDaysToJudge()
            #expect(read.keys.sorted() == [Self.first, LocalDay("2026-05-02")!])
            // More data for the 1st arrives while those days are judged: the 1st stays marked.
            _ = try await ada.storeMetrics(Self.stepsSoFar(5_000), file: nil)
            try await ada.judgedMetricDays(read)
            #expect(try await ada.metricDaysToJudge().keys.sorted() == [Self.first])
            // A resend that changes nothing marks nothing; another account's marks are its own.
            try await ada.judgedMetricDays(try await ada.metricDaysToJudge())
            _ = try await ada.storeMetrics(Self.stepsSoFar(5_000), file: nil)
            #expect(try await ada.metricDaysToJudge().isEmpty)
            #expect(try await owner.metricDaysToJudge().isEmpty)
        }
    }

    @Test(arguments: Engine.available) func aQueuedGoalIsClaimedOnceAndTakenOverByThePass(engine: Engine) async throws {
        try await Self.withTwoAccounts(engine) { _, ada in
            let habit = try await ada.addHabit(Fixture.habit("Walk", kind: .metric))
            let entry = Fixture.entry(habit.id, "2026-05-01", source: .metric)
            let key = "goal.met/habit-\(habit.id)"
            let queued = ClaimRequest(key: key, day: Self.first, event: "{}", entry: entry, queued: true)
            let first = try await ada.decideAndClaim(queued, at: Fixture.noon, lease: 60)
            #expect(first.queued && first.claim == nil && first.entryOutcome == .recorded)
            let second = try await ada.decideAndClaim(queued, at: Fixture.noon, lease: 60)
            #expect(!second.queued && second.claim == nil && second.entryOutcome == .unchanged)
            #expect(try await ada.settledNotificationKeys([key], day: Self.first).isEmpty)
            // The pass takes it over at once (no attempt yet), delivers it, and it is settled.
            let pass = try await ada.decideAndClaim(
                ClaimRequest(key: key, day: Self.first, event: "{}", entry: entry), at: Fixture.noon, lease: 60)
            let claim = try #require(pass.claim)
            #expect(claim.attempt == 1)
            #expect(try await ada.markDelivered(claim, at: Fixture.noon))
            #expect(try await ada.settledNotificationKeys([key], day: Self.first) == [key])
            #expect(try await ada.notifications(since: Self.first).map(\.state) == [.delivered])
        }
    }

    /// Two servers on one PostgreSQL database queue the same goal at the same instant: one claim.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped)) func twoServersQueueOneClaim() async throws {
        try await TestPostgres.withTwoServers { one, two in
            let ada = try await Fixture.account(one, "ada@example.com")
            let habit = try await one.scoped(to: ada.id).addHabit(Fixture.habit("Walk", kind: .metric))
            let entry = Fixture.entry(habit.id, "2026-05-01", source: .metric)
            let request = ClaimRequest(
                key: "goal.met/habit-\(habit.id)", day: Self.first, event: "{}", entry: entry, queued: true)
            let decisions = try await withThrowingTaskGroup(of: ClaimDecision.self) { group in
                for store in Array(repeating: one, count: 8) + Array(repeating: two, count: 8) {
                    group.addTask { try await store.scoped(to: ada.id).decideAndClaim(request, at: Fixture.noon, lease: 60) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(decisions.filter(\.queued).count == 1)
            #expect(decisions.filter { $0.entryOutcome == .recorded }.count == 1)
            #expect(try await one.scoped(to: ada.id).notifications(since: Self.first).count == 1)
        }
    }
}
