import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@Suite struct NotificationStoreTests {
    let day = LocalDay("2026-03-08")!
    let t0 = Date(timeIntervalSince1970: 1_772_960_000)

    func request(_ key: String = "goal.met/habit-1") -> ClaimRequest {
        ClaimRequest(key: key, day: day, event: "{\"n\":1}")
    }

    @Test func claimsOncePerKeyAndDay() async throws {
        let db = try AppDatabase.inMemory()
        let first = try await db.decideAndClaim(request(), at: t0, lease: 60)
        let second = try await db.decideAndClaim(request(), at: t0, lease: 60)
        #expect(first.claim?.attempt == 1)
        #expect(second.claim == nil)
        await #expect(try db.markDelivered(first.claim!, at: t0))
        await #expect(try db.decideAndClaim(request(), at: t0.addingTimeInterval(3600), lease: 60).claim == nil)
        await #expect(try db.settledNotificationKeys(["goal.met/habit-1", "other"], day: day) == ["goal.met/habit-1"])
        await #expect(try db.notifications(since: day).map(\.state) == [.delivered])
        // Another day is another claim.
        var tomorrow = request()
        tomorrow.day = day.adding(days: 1)
        await #expect(try db.decideAndClaim(tomorrow, at: t0, lease: 60).claim != nil)
    }

    @Test func givesAFailedClaimBackUpToFiveAttemptsAfterABackOff() async throws {
        let db = try AppDatabase.inMemory()
        var now = t0
        for attempt in 1...NotificationClaimRule.maxAttemptsPerDay {
            let claim = try await #require(try db.decideAndClaim(request(), at: now, lease: 60).claim)
            #expect(claim.attempt == attempt)
            try await db.markFailed(claim, error: "hook exited with status 1")
            // Not again before the back-off (1, 2, 4, 8 minutes) has passed.
            let delay = NotificationClaimRule.retryDelay(afterAttempts: attempt)
            #expect(delay == 60 * Double(1 << (attempt - 1)))
            await #expect(try db.decideAndClaim(request(), at: now.addingTimeInterval(delay - 1), lease: 60).claim == nil)
            now = now.addingTimeInterval(delay)
        }
        await #expect(try db.decideAndClaim(request(), at: now.addingTimeInterval(86_400), lease: 60).claim == nil)
        let stored = try await #require(try db.notifications(since: day).first)
        #expect(stored.state == .failed)
        #expect(stored.attempts == 5)
        #expect(stored.lastError == "hook exited with status 1")
        await #expect(try db.settledNotificationKeys(["goal.met/habit-1"], day: day) == ["goal.met/habit-1"])
    }

    @Test func takesOverAClaimWhoseLeaseRanOut() async throws {
        let db = try AppDatabase.inMemory()
        let crashed = try await #require(try db.decideAndClaim(request(), at: t0, lease: 60).claim)
        await #expect(try db.decideAndClaim(request(), at: t0.addingTimeInterval(30), lease: 60).claim == nil)
        let taken = try await #require(try db.decideAndClaim(request(), at: t0.addingTimeInterval(61), lease: 60).claim)
        #expect(taken.attempt == 2)
        // The pass that lost its lease cannot settle the new claim.
        await #expect(try db.markDelivered(crashed, at: t0) == false)
        await #expect(try db.markDelivered(taken, at: t0.addingTimeInterval(62)))
        await #expect(try db.notifications(since: day).first?.lastError?.contains("did not finish") == true)
    }

    @Test func recordsTheEntryInTheSameTransactionAndRespectsManualEntries() async throws {
        let db = try AppDatabase.inMemory()
        let habit = try await db.addHabit(Habit(name: "Walk", kind: .metric, createdDay: day, createdAt: t0))
        try await db.record(Entry(habitID: habit.id, day: day, status: .skipped, recordedAt: t0, zone: "UTC"))
        var ask = request()
        ask.entry = Entry(
            habitID: habit.id, day: day, status: .done, value: 9000, source: .metric, recordedAt: t0, zone: "UTC")
        let decision = try await db.decideAndClaim(ask, at: t0, lease: 60)
        #expect(decision.entryOutcome == .keptManual)
        await #expect(try db.entry(habitID: habit.id, day: day)?.status == .skipped)
        // A reminder is not claimed once the day has an entry.
        let reminder = ClaimRequest(
            key: "habit.reminder/habit-\(habit.id)", day: day, event: "{}",
            condition: .habitHasNoEntry(habitID: habit.id))
        await #expect(try db.decideAndClaim(reminder, at: t0, lease: 60).claim == nil)
    }
}
