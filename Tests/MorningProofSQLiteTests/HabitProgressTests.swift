import Foundation
import MorningProofCore
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

@Suite struct HabitProgressTests {
    let at = Date(timeIntervalSince1970: 1_779_000_000)
    let database: AppDatabase

    init() throws { database = try AppDatabase.inMemory() }

    func add(_ name: String, created: String, schedule: Schedule = .daily) async throws -> Habit {
        try await database.addHabit(Habit(name: name, schedule: schedule, createdDay: LocalDay(created)!, createdAt: at))
    }

    func mark(_ habit: Habit, _ day: String, _ status: EntryStatus = .done) async throws {
        try await database.record(Entry(habitID: habit.id, day: LocalDay(day)!, status: status, recordedAt: at, zone: "UTC"))
    }

    @Test func aHabitsProgressJudgesItsDaysAsOfToday() async throws {
        let read = try await add("Read", created: "2026-11-15")
        for day in ["2026-11-15", "2026-11-16", "2026-11-17"] { try await mark(read, day) }
        let progress = try await database.progress(of: read, today: LocalDay("2026-11-18")!)
        #expect(progress.habit == read)
        #expect(progress.state == .pending)
        #expect(progress.timeline.currentStreak == 3)
        #expect(progress.timeline.firstDay == LocalDay("2026-11-15")!)
        try await mark(read, "2026-11-18", .skipped)
        await #expect(try database.progress(of: read, today: LocalDay("2026-11-18")!).state == .skipped)
    }

    @Test func aHabitCreatedAfterTodayStartsToday() async throws {
        let later = try await add("Later", created: "2026-11-20")
        let progress = try await database.progress(of: later, today: LocalDay("2026-11-18")!)
        #expect(progress.timeline.firstDay == LocalDay("2026-11-18")!)
        #expect(progress.timeline.days.count == 1)
    }

    @Test func theBulkReadMatchesOneHabitAtATimeInOrder() async throws {
        let read = try await add("Read", created: "2026-11-01")
        let walk = try await add("Walk", created: "2026-11-10", schedule: .timesPerWeek(3))
        let idle = try await add("Idle", created: "2026-11-12")
        for day in ["2026-11-02", "2026-11-03", "2026-11-17"] { try await mark(read, day) }
        for day in ["2026-11-10", "2026-11-12", "2026-11-16"] { try await mark(walk, day) }
        let today = LocalDay("2026-11-18")!
        let all = try await database.progress(of: [walk, idle, read], today: today)
        #expect(all.map(\.habit.name) == ["Walk", "Idle", "Read"])
        for progress in all {
            let one = try await database.progress(of: progress.habit, today: today)
            #expect(one.timeline.days == progress.timeline.days)
            #expect(one.state == progress.state)
        }
    }

    @Test func travelDaysAndTheWeekStartComeFromTheSettings() async throws {
        let walk = try await add("Walk", created: "2026-11-09", schedule: .timesPerWeek(3))
        try await database.changeClock(to: DayClock(zoneIdentifier: "UTC")!, at: at, systemZone: "UTC")
        // 2026-11-17T12:00:00Z: from UTC to Tokyo, on the 17th in both zones.
        try await database.changeClock(
            to: DayClock(zoneIdentifier: "Asia/Tokyo")!, at: Date(timeIntervalSince1970: 1_794_916_800),
            systemZone: "UTC")
        try await database.setSetting(SettingKey.weekStart, to: "sunday")
        let progress = try await database.progress(of: walk, today: LocalDay("2026-11-18")!)
        #expect(progress.timeline.weekStart == 7)
        #expect(try database.travelDays().isEmpty == false)
        for day in try database.travelDays() {
            #expect(progress.timeline.status(on: day)?.mark == .travel)
        }
    }
}
