import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Streaks and the account's clock: the same assertions on SQLite and on PostgreSQL.
@Suite struct HabitProgressStoreTests {
    static func day(_ text: String) -> LocalDay { LocalDay(text)! }

    /// A daily habit done every morning in New York across the change to summer time (2026-03-08),
    /// then a flight to Istanbul: the day of the flight, missed, bridges the streak as a skip.
    @Test(arguments: Engine.available)
    func streaksRunThroughSummerTimeAndATrip(engine: Engine) async throws {
        try await engine.withStore { store in
            let account = try await Fixture.account(store, "ada@example.com", zone: "America/New_York")
            let ada = store.scoped(to: account.id)
            let newYork = DayClock(zoneIdentifier: "America/New_York", dayStart: 0)!
            // 07:30 in New York each morning, as UTC moves by an hour on 2026-03-08.
            let mornings = (0..<7).map { Date(timeIntervalSince1970: 1_772_713_800 + Double($0) * 86_400) }
            let (walk, gym) = try await { () async throws -> (Habit, Habit) in
                let walk = try await ada.addHabit(Fixture.habit("Walk", created: "2026-03-01"))
                let gym = try await ada.addHabit(
                    Habit(
                        name: "Gym", schedule: .timesPerWeek(2), createdDay: Self.day("2026-03-01"),
                        createdAt: Fixture.noon))
                for morning in mornings {
                    try await ada.record(
                        Entry(
                            habitID: walk.id, day: newYork.day(at: morning), status: .done, recordedAt: morning,
                            zone: "America/New_York"))
                }
                return (walk, gym)
            }()
            #expect(mornings.map { newYork.day(at: $0) } == Self.day("2026-03-05").through(Self.day("2026-03-11")))
            // The flight: 23:00 on 2026-03-11 in New York is 06:00 on 2026-03-12 in Istanbul.
            let flight = Date(timeIntervalSince1970: 1_773_284_400)
            _ = try await store.changeProfile(
                of: account.id, timeZone: "Europe/Istanbul", dayStart: nil, weekStart: 7, at: flight)
            try await { () async throws in
                try await ada.record(Fixture.entry(walk.id, "2026-03-13"))
                for day in ["2026-03-08", "2026-03-10"] { try await ada.record(Fixture.entry(gym.id, day)) }
                await #expect(try ada.weekStart() == 7)
                await #expect(try ada.clock() == DayClock(zoneIdentifier: "Europe/Istanbul", dayStart: 0))
                let today = Self.day("2026-03-13")
                for need in [HistoryNeed.summary, .days(from: Self.day("2026-03-01")), .all] {
                    let progress = try await ada.progress(of: [walk, gym], today: today, need: need)
                    let timeline = progress[0].timeline
                    // Seven mornings, the trip's day bridged, and the day after.
                    #expect(timeline.currentStreak == 8, "\(need)")
                    #expect(timeline.longestStreak.length == 8)
                    #expect(timeline.totalDone == 8)
                    #expect(progress[0].state == .done)
                    // The store hands Core the days, the trip and the week start: the same judgement.
                    let expected = HabitTimeline(
                        schedule: .daily, firstDay: Self.day("2026-03-01"), today: today,
                        recorded: (mornings.map { newYork.day(at: $0) } + [today]).map { ($0, .done) },
                        travelDays: [Self.day("2026-03-11"), Self.day("2026-03-12")], weekStart: 7)
                    #expect(timeline.score == expected.score)
                    #expect(timeline.status(on: Self.day("2026-03-12"))?.state == "travel")
                    // Weeks start on Sunday: 2026-03-08 and 03-10 fill the week of Sunday 03-08.
                    let gym = progress[1].timeline
                    let weekly = HabitTimeline(
                        schedule: .timesPerWeek(2), firstDay: Self.day("2026-03-01"), today: today,
                        recorded: [(Self.day("2026-03-08"), .done), (Self.day("2026-03-10"), .done)],
                        travelDays: [Self.day("2026-03-11"), Self.day("2026-03-12")], weekStart: 7)
                    #expect(gym.currentStreak == weekly.currentStreak && gym.score == weekly.score)
                    #expect(gym.status(on: Self.day("2026-03-13"))?.state == weekly.status(on: today)?.state)
                }
            }()
        }
    }

    @Test(arguments: Engine.available)
    func settingsAndGateUnlocksAreTheAccounts(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = store.scoped(to: try await Fixture.account(store, "ada@example.com").id)
            let bo = store.scoped(to: try await Fixture.account(store, "bo@example.com", zone: nil).id)
            try await { () async throws in
                await #expect(try ada.clock() == DayClock(zoneIdentifier: "Europe/Istanbul", dayStart: 0))
                await #expect(throws: StoreError.noClockYet) { try await bo.clock() }
                await #expect(try bo.weekStart() == 1)

                try await ada.setSetting(SettingKey.checkinQuestion, to: "Did you pray?")
                try await ada.setSetting(SettingKey.checkinQuestion, to: "Did you read?")
                try await ada.setSetting(SettingKey.gateUnlocksPerWeek, to: "2")
                await #expect(
                    try await ada.settings() == [
                        SettingKey.checkinQuestion: "Did you read?", SettingKey.gateUnlocksPerWeek: "2",
                    ])
                await #expect(try ada.gateUnlocksPerWeek() == 2)
                await #expect(try bo.setting(SettingKey.checkinQuestion) == nil)
                try await ada.setSetting(SettingKey.checkinQuestion, to: nil)
                await #expect(try ada.setting(SettingKey.checkinQuestion) == nil)

                func unlock(_ store: any AccountData, _ day: String) async throws -> GateUnlockOutcome {
                    try await store.unlockGate(day: Self.day(day), at: Fixture.noon, reason: "a flight", limit: 2)
                }
                await #expect(try unlock(ada, "2026-05-01") == .unlocked(remaining: 1))
                let first = GateUnlock(day: Self.day("2026-05-01"), at: Fixture.noon, reason: "a flight")
                await #expect(try unlock(ada, "2026-05-01") == .alreadyUnlocked(first))
                await #expect(try unlock(ada, "2026-05-03") == .unlocked(remaining: 0))
                await #expect(
                    try await unlock(ada, "2026-05-04")
                        == .limitReached(
                            used: try await ada.gateUnlocks(from: Self.day("2026-04-28"), through: Self.day("2026-05-04")),
                            nextDay: Self.day("2026-05-08")))
                await #expect(try ada.gateUnlocks(from: Self.day("2026-05-02"), through: Self.day("2026-05-09")).count == 1)
                await #expect(try ada.gateUnlock(on: Self.day("2026-05-01")) == first)
                await #expect(try unlock(bo, "2026-05-04") == .unlocked(remaining: 1))
                await #expect(try ada.metricValue(metric: "steps", day: Fixture.day, activity: nil) == nil)
                await #expect(throws: StoreError.self) {
                    try await ada.metricValue(metric: "mana", day: Fixture.day, activity: nil)
                }
            }()
        }
    }
}
