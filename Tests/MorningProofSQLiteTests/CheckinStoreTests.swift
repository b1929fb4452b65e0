import Foundation
import MorningProofCore
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

@Suite struct CheckinStoreTests {
    let day = LocalDay("2026-03-02")!
    let at = Date(timeIntervalSince1970: 1_772_450_000)

    func checkin(_ database: AppDatabase) async throws -> Habit {
        try await database.addHabit(
            Habit(name: "Morning check-in", kind: .checkin, createdDay: LocalDay("2026-03-01")!, createdAt: at))
    }

    @Test func aYesIsADoneEntryAndStandsForTheDay() async throws {
        let database = try AppDatabase.inMemory()
        let habit = try await checkin(database)
        await #expect(try database.answerCheckin(habitID: habit.id, day: day, yes: true, at: at, zone: "UTC") == .answered)
        let entry = try await #require(try database.entry(habitID: habit.id, day: day))
        #expect(entry.status == .done)
        #expect(entry.source == .checkin)
        await #expect(
            try database.answerCheckin(habitID: habit.id, day: day, yes: false, at: at + 60, zone: "UTC") == .yesStands)
        await #expect(try database.checkinAnswer(habitID: habit.id, day: day)?.yes == true)
        await #expect(try database.entries(habitID: habit.id).count == 1)
    }

    @Test func aNoHasNoEntryAndCanBecomeYes() async throws {
        let database = try AppDatabase.inMemory()
        let habit = try await checkin(database)
        await #expect(try database.answerCheckin(habitID: habit.id, day: day, yes: false, at: at, zone: "UTC") == .answered)
        await #expect(try database.entry(habitID: habit.id, day: day) == nil)
        await #expect(try database.checkinAnswer(habitID: habit.id, day: day)?.yes == false)
        await #expect(try database.answerCheckin(habitID: habit.id, day: day, yes: false, at: at, zone: "UTC") == .unchanged)
        await #expect(
            try database.answerCheckin(habitID: habit.id, day: day, yes: true, at: at + 3600, zone: "UTC")
                == .changedToYes)
        await #expect(try database.entry(habitID: habit.id, day: day)?.status == .done)
        await #expect(try database.lastCheckinAnswer(habitID: habit.id)?.answeredAt == at + 3600)
    }

    @Test func clearingADayRemovesTheAnswerAndTheEntry() async throws {
        let database = try AppDatabase.inMemory()
        let habit = try await checkin(database)
        try await database.answerCheckin(habitID: habit.id, day: day, yes: true, at: at, zone: "UTC")
        let cleared = try await database.clearDay(habitID: habit.id, day: day)
        #expect(cleared.entry?.status == .done)
        #expect(cleared.answer?.yes == true)
        await #expect(try database.checkinAnswer(habitID: habit.id, day: day) == nil)
        await #expect(try database.entry(habitID: habit.id, day: day) == nil)
        await #expect(try database.clearDay(habitID: habit.id, day: day) == ClearedDay(entry: nil, answer: nil))
    }

    @Test func unlocksAreLimitedInAnyRollingWeek() async throws {
        let database = try AppDatabase.inMemory()
        let monday = LocalDay("2026-03-02")!
        await #expect(try database.unlockGate(day: monday, at: at, reason: "travel", limit: 1) == .unlocked(remaining: 0))
        if case .alreadyUnlocked(let unlock) = try await database.unlockGate(day: monday, at: at, reason: "again", limit: 1) {
            #expect(unlock.reason == "travel")
        } else {
            Issue.record("a second unlock on the same day was not refused as already unlocked")
        }
        // Six days later the first unlock is still inside the 7 days; on the seventh it has left.
        guard
            case .limitReached(let used, let next) = try await database.unlockGate(
                day: monday.adding(days: 6), at: at, reason: "x", limit: 1)
        else {
            Issue.record("the limit was not enforced")
            return
        }
        #expect(used.map(\.day) == [monday])
        #expect(next == monday.adding(days: 7))
        await #expect(
            try database.unlockGate(day: monday.adding(days: 7), at: at, reason: "y", limit: 1)
                == .unlocked(remaining: 0))
        await #expect(try database.gateUnlocks(from: monday, through: monday.adding(days: 30)).count == 2)
        // Two a week: the third inside any 7 days is refused, and says when the next one is possible.
        let other = try AppDatabase.inMemory()
        _ = try await other.unlockGate(day: monday, at: at, reason: "a", limit: 2)
        _ = try await other.unlockGate(day: monday.adding(days: 3), at: at, reason: "b", limit: 2)
        await #expect(
            try other.unlockGate(day: monday.adding(days: 5), at: at, reason: "c", limit: 2)
                == .limitReached(
                    used: try other.gateUnlocks(from: monday, through: monday.adding(days: 3)),
                    nextDay: monday.adding(days: 7)))
        await #expect(
            try other.unlockGate(day: monday.adding(days: 30), at: at, reason: "z", limit: 0)
                == .limitReached(used: [], nextDay: nil))
    }
}
