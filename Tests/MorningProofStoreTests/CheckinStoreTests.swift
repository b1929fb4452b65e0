import Foundation
import MorningProofCore
import Testing

@testable import MorningProofStore

@Suite struct CheckinStoreTests {
    let day = LocalDay("2026-03-02")!
    let at = Date(timeIntervalSince1970: 1_772_450_000)

    func checkin(_ database: AppDatabase) throws -> Habit {
        try database.addHabit(
            Habit(name: "Morning check-in", kind: .checkin, createdDay: LocalDay("2026-03-01")!, createdAt: at))
    }

    @Test func aYesIsADoneEntryAndStandsForTheDay() throws {
        let database = try AppDatabase.inMemory()
        let habit = try checkin(database)
        #expect(try database.answerCheckin(habitID: habit.id, day: day, yes: true, at: at, zone: "UTC") == .answered)
        let entry = try #require(try database.entry(habitID: habit.id, day: day))
        #expect(entry.status == .done)
        #expect(entry.source == .checkin)
        #expect(
            try database.answerCheckin(habitID: habit.id, day: day, yes: false, at: at + 60, zone: "UTC") == .yesStands)
        #expect(try database.checkinAnswer(habitID: habit.id, day: day)?.yes == true)
        #expect(try database.entries(habitID: habit.id).count == 1)
    }

    @Test func aNoHasNoEntryAndCanBecomeYes() throws {
        let database = try AppDatabase.inMemory()
        let habit = try checkin(database)
        #expect(try database.answerCheckin(habitID: habit.id, day: day, yes: false, at: at, zone: "UTC") == .answered)
        #expect(try database.entry(habitID: habit.id, day: day) == nil)
        #expect(try database.checkinAnswer(habitID: habit.id, day: day)?.yes == false)
        #expect(try database.answerCheckin(habitID: habit.id, day: day, yes: false, at: at, zone: "UTC") == .unchanged)
        #expect(
            try database.answerCheckin(habitID: habit.id, day: day, yes: true, at: at + 3600, zone: "UTC")
                == .changedToYes)
        #expect(try database.entry(habitID: habit.id, day: day)?.status == .done)
        #expect(try database.lastCheckinAnswer(habitID: habit.id)?.answeredAt == at + 3600)
    }

    @Test func clearingADayRemovesTheAnswerAndTheEntry() throws {
        let database = try AppDatabase.inMemory()
        let habit = try checkin(database)
        try database.answerCheckin(habitID: habit.id, day: day, yes: true, at: at, zone: "UTC")
        let cleared = try database.clearDay(habitID: habit.id, day: day)
        #expect(cleared.entry?.status == .done)
        #expect(cleared.answer?.yes == true)
        #expect(try database.checkinAnswer(habitID: habit.id, day: day) == nil)
        #expect(try database.entry(habitID: habit.id, day: day) == nil)
        #expect(try database.clearDay(habitID: habit.id, day: day) == ClearedDay(entry: nil, answer: nil))
    }

    @Test func unlocksAreLimitedInAnyRollingWeek() throws {
        let database = try AppDatabase.inMemory()
        let monday = LocalDay("2026-03-02")!
        #expect(try database.unlockGate(day: monday, at: at, reason: "travel", limit: 1) == .unlocked(remaining: 0))
        if case .alreadyUnlocked(let unlock) = try database.unlockGate(day: monday, at: at, reason: "again", limit: 1) {
            #expect(unlock.reason == "travel")
        } else {
            Issue.record("a second unlock on the same day was not refused as already unlocked")
        }
        // Six days later the first unlock is still inside the 7 days; on the seventh it has left.
        guard
            case .limitReached(let used, let next) = try database.unlockGate(
                day: monday.adding(days: 6), at: at, reason: "x", limit: 1)
        else {
            Issue.record("the limit was not enforced")
            return
        }
        #expect(used.map(\.day) == [monday])
        #expect(next == monday.adding(days: 7))
        #expect(
            try database.unlockGate(day: monday.adding(days: 7), at: at, reason: "y", limit: 1)
                == .unlocked(remaining: 0))
        #expect(try database.gateUnlocks(from: monday, through: monday.adding(days: 30)).count == 2)
        // Two a week: the third inside any 7 days is refused, and says when the next one is possible.
        let other = try AppDatabase.inMemory()
        _ = try other.unlockGate(day: monday, at: at, reason: "a", limit: 2)
        _ = try other.unlockGate(day: monday.adding(days: 3), at: at, reason: "b", limit: 2)
        #expect(
            try other.unlockGate(day: monday.adding(days: 5), at: at, reason: "c", limit: 2)
                == .limitReached(
                    used: try other.gateUnlocks(from: monday, through: monday.adding(days: 3)),
                    nextDay: monday.adding(days: 7)))
        #expect(
            try other.unlockGate(day: monday.adding(days: 30), at: at, reason: "z", limit: 0)
                == .limitReached(used: [], nextDay: nil))
    }
}
