import Foundation
import GRDB
import MorningProofCore
import PropertyBased
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport

/// The derived state kept per habit: what a reader gets with it must be what the whole history gives.
@Suite struct HabitStateTests {
    static let schedules: [Schedule] = [
        .daily, .everyDays(3), .timesPerWeek(2), .timesPerWeek(5), .timesPerMonth(4),
        .timesInDays(times: 2, days: 5), .timesInDays(times: 3, days: 9), .everyDays(2),
    ]
    static let zones = ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
    static let weekdays = ["monday", "wednesday", "sunday"]
    static let base = LocalDay("2026-01-05")!
    static let at = Date(timeIntervalSince1970: 1_767_600_000)

    /// Random habits, schedules, entries, skips, undos, zone changes and week starts, applied in random
    /// order through the store; after each, readers on a few days agree with the whole history, and
    /// at the end on every other day.
    /// (Not shrunk: each case replays dozens of writes, and its first disagreement says enough.)
    @Test(.shrinking(false)) func theStoredStateNeverDisagreesWithTheWholeHistory() async throws {
        let operation = zip(Gen.int(in: 0...11), Gen.int(in: -3...150), Gen.int(in: 0...15))
        await propertyCheck(count: 25, input: operation.array(of: 20...70), Gen.int(in: 0...63)) { operations, pick in
            let database = try AppDatabase.inMemory()
            try await database.setSetting(SettingKey.timeZone, to: "UTC")
            var habits: [Habit] = []
            for index in 0..<2 {
                await habits.append(
                    try database.addHabit(
                        Habit(
                            name: "H\(index)", schedule: Self.schedules[(pick >> (3 * index)) & 7],
                            createdDay: Self.base, createdAt: Self.at)))
            }
            var resumed = 0
            for (number, (kind, offset, value)) in operations.enumerated() {
                let habit = habits[value % 2]
                let day = Self.base.adding(days: offset)
                switch kind {
                case 0...6:
                    let status: EntryStatus = kind == 6 ? .skipped : .done
                    try await database.record(
                        Entry(habitID: habit.id, day: day, status: status, recordedAt: Self.at, zone: "UTC"))
                case 7:
                    _ = try await database.clearDay(habitID: habit.id, day: day)
                case 8:
                    var edited = try await #require(try database.habit(id: habit.id))
                    edited.schedule = Self.schedules[value % Self.schedules.count]
                    try await database.updateHabit(edited)
                case 9:
                    let zone = Self.zones[value % Self.zones.count]
                    let instant = Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400 + 43_200)
                    try await database.changeClock(to: DayClock(zoneIdentifier: zone, dayStart: 0)!, at: instant, systemZone: "UTC")
                case 10:
                    try await database.setSetting(SettingKey.weekStart, to: Self.weekdays[value % Self.weekdays.count])
                default:
                    try await database.record(
                        Entry(habitID: habit.id, day: day, status: .done, source: .metric, recordedAt: Self.at, zone: "UTC"))
                }
                for today in [day.adding(days: 2 + value), Self.base.adding(days: 170)] {
                    guard let count = try await HabitStateAgreement.expect(database, today: today, "after \(number): \(operations)")
                    else { return }
                    resumed += count
                }
            }
            for today in stride(from: 0, through: 190, by: 2).map({ Self.base.adding(days: $0) }) {
                guard let count = try await HabitStateAgreement.expect(database, today: today, "at the end: \(operations)")
                else { return }
                resumed += count
            }
            // The states were used, not passed over: a long history is read from its state.
            #expect(resumed > 0, "no reading came from a stored state: \(operations)")
        }
    }

    /// A habit with a long history, as a person who records every day leaves it.
    func longHistory() async throws -> (AppDatabase, Habit) {
        let database = try AppDatabase.inMemory()
        let habit = try await database.addHabit(Habit(name: "Read", createdDay: Self.base, createdAt: Self.at))
        for offset in 0..<400 where offset % 17 != 5 {
            try await database.record(
                Entry(habitID: habit.id, day: Self.base.adding(days: offset), status: .done, recordedAt: Self.at, zone: "UTC"))
        }
        return (database, habit)
    }

    func storedRow(_ database: AppDatabase, _ habit: Habit) throws -> Row? {
        try database.read { db in try Row.fetchOne(db, sql: "SELECT * FROM habitState WHERE habitId = ?", arguments: [habit.id]) }
    }

    @Test func everyWriteLeavesTheStateJustBehindTheLatestEntryAndReadersUseIt() async throws {
        let (database, habit) = try await longHistory()
        let row = try #require(try storedRow(database, habit))
        #expect(row["through"] as String == Self.base.adding(days: 397).description)
        #expect(try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM habitStateDirty") } == 0)
        let today = Self.base.adding(days: 400)
        let progress = try await database.progress(of: habit, today: today, need: .summary)
        #expect(progress.timeline.knownFrom > progress.timeline.firstDay)
        #expect(progress.timeline.currentStreak == 3)
        try await HabitStateAgreement.expect(database, today: today, "long history")
    }

    @Test func aDamagedStateIsNotTrustedAndIsRebuilt() async throws {
        let (database, habit) = try await longHistory()
        let today = Self.base.adding(days: 400)
        let before = try storedRow(database, habit)
        try await database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE habitState SET longest = 999, trailingRun = 999")
        }
        await #expect(try database.progress(of: habit, today: today, need: .summary).timeline.longestStreak.length == 16)
        #expect(try storedRow(database, habit) == before, "rebuilt as it was")
        try await HabitStateAgreement.expect(database, today: today, "damaged")
    }

    @Test func aMissingOrOlderStateIsRebuilt() async throws {
        let (database, habit) = try await longHistory()
        let today = Self.base.adding(days: 400)
        let before = try storedRow(database, habit)
        try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM habitState") }
        await #expect(try database.progress(of: habit, today: today, need: .summary).timeline.knownFrom == Self.base)
        #expect(try storedRow(database, habit) == before)
        try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "UPDATE habitState SET version = 0") }
        await #expect(try database.progress(of: habit, today: today, need: .summary).timeline.knownFrom == Self.base)
        #expect(try storedRow(database, habit) == before)
    }

    @Test func aWriteThatBypassesTheStoreStillCounts() async throws {
        let (database, habit) = try await longHistory()
        let today = Self.base.adding(days: 400)
        // Another program fills a missed day long ago: the triggers note it, so the state is not trusted.
        try await database.writer.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    INSERT INTO entry (habitId, day, status, source, recordedAt, zone)
                    VALUES (?, ?, 'done', 'manual', '2026-01-01 00:00:00', 'UTC')
                    """,
                arguments: [habit.id, Self.base.adding(days: 5).description])
        }
        await #expect(try database.progress(of: habit, today: today, need: .summary).timeline.longestStreak.length == 22)
        try await HabitStateAgreement.expect(database, today: today, "bypassed")
        // A zone change on a day the state rests on is a travel day it did not know.
        try await database.setSetting(SettingKey.timeZone, to: "UTC")
        try await database.changeClock(
            to: DayClock(zoneIdentifier: "Asia/Tokyo", dayStart: 0)!,
            at: Date(timeIntervalSince1970: Double(Self.base.adding(days: 22).dayNumber) * 86_400 + 43_200),
            systemZone: "UTC")
        try await HabitStateAgreement.expect(database, today: today, "zone change")
    }
}
