import Foundation
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import PropertyBased
import Testing

@testable import MorningProofPostgres

/// The derived state kept per habit on PostgreSQL (`PostgresStore+HabitState`), as `HabitStateTests`
/// checks it on SQLite: what a reader gets with it must be what the whole history gives.
@Suite(.enabled(if: TestPostgres.isAvailable || TestPostgres.required, TestPostgres.skipped))
struct PostgresHabitStateTests {
    static let schedules: [Schedule] = [
        .daily, .everyDays(3), .timesPerWeek(2), .timesPerWeek(5), .timesPerMonth(4),
        .timesInDays(times: 2, days: 5), .timesInDays(times: 3, days: 9), .everyDays(2),
    ]
    static let zones = ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
    static let base = LocalDay("2026-01-05")!
    static let at = Date(timeIntervalSince1970: 1_767_600_000)

    /// Random entries, skips, undos, schedule edits, zone changes and week starts through the store,
    /// each case an account of its own; after each step, readers agree with the whole history.
    @Test(.shrinking(false)) func theStoredStateNeverDisagreesWithTheWholeHistory() async throws {
        try await TestPostgres.withStore { server in
            let operation = zip(Gen.int(in: 0...11), Gen.int(in: -3...150), Gen.int(in: 0...15))
            var number = 0
            await propertyCheck(count: 15, input: operation.array(of: 20...60), Gen.int(in: 0...63)) { operations, pick in
                number += 1
                let account = try #require(
                    try await server.createAccount(
                        email: "case\(number)-\(UUID())@example.com", passwordHash: "x", timeZone: "UTC", at: Self.at))
                let store = server.scoped(to: account.id)
                var habits: [Habit] = []
                for index in 0..<2 {
                    habits.append(
                        try await store.addHabit(
                            Habit(
                                name: "H\(index)", schedule: Self.schedules[(pick >> (3 * index)) & 7],
                                createdDay: Self.base, createdAt: Self.at)))
                }
                var resumed = 0
                for (step, (kind, offset, value)) in operations.enumerated() {
                    let habit = habits[value % 2]
                    let day = Self.base.adding(days: offset)
                    switch kind {
                    case 0...6:
                        try await store.record(
                            Entry(
                                habitID: habit.id, day: day, status: kind == 6 ? .skipped : .done, recordedAt: Self.at,
                                zone: "UTC"))
                    case 7:
                        _ = try await store.clearDay(habitID: habit.id, day: day)
                    case 8:
                        var edited = try #require(try await store.habit(id: habit.id))
                        edited.schedule = Self.schedules[value % Self.schedules.count]
                        try await store.updateHabit(edited)
                    case 9:
                        let instant = Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400 + 43_200)
                        _ = try await store.changeProfile(
                            of: account.id, timeZone: Self.zones[value % Self.zones.count], dayStart: nil,
                            weekStart: nil, at: instant)
                    case 10:
                        _ = try await store.changeProfile(
                            of: account.id, timeZone: nil, dayStart: nil, weekStart: [1, 3, 7][value % 3], at: Self.at)
                    default:
                        try await store.record(
                            Entry(
                                habitID: habit.id, day: day, status: .done, source: .metric, recordedAt: Self.at,
                                zone: "UTC"))
                    }
                    for today in [day.adding(days: 2 + value), Self.base.adding(days: 170)] {
                        guard
                            let count = try await HabitStateAgreement.expect(
                                store, today: today, "after \(step): \(operations)")
                        else { return }
                        resumed += count
                    }
                }
                for today in stride(from: 0, through: 190, by: 5).map({ Self.base.adding(days: $0) }) {
                    guard let count = try await HabitStateAgreement.expect(store, today: today, "at the end: \(operations)")
                    else { return }
                    resumed += count
                }
                #expect(resumed > 0, "no reading came from a stored state: \(operations)")
            }
        }
    }

    /// A habit of an account with a long history, as a person who records every day leaves it.
    static func longHistory(_ server: PostgresStore) async throws -> (PostgresStore, Habit) {
        let account = try #require(
            try await server.createAccount(email: "long@example.com", passwordHash: "x", timeZone: "UTC", at: at))
        let store = server.scoped(to: account.id)
        let habit = try await store.addHabit(Habit(name: "Read", createdDay: base, createdAt: at))
        for offset in 0..<400 where offset % 17 != 5 {
            try await store.record(
                Entry(habitID: habit.id, day: base.adding(days: offset), status: .done, recordedAt: at, zone: "UTC"))
        }
        return (store, habit)
    }

    static func state(_ store: PostgresStore, _ habit: Habit) async throws -> [String] {
        try await TestPostgres.strings(
            store, "SELECT concat_ws('|', through, trailingRun, longest, totalDone, score, checksum) FROM habitState WHERE habitId = \(habit.id)")
    }

    @Test func everyWriteLeavesTheStateJustBehindTheLatestEntryAndReadersUseIt() async throws {
        try await TestPostgres.withStore { server in
            let (store, habit) = try await Self.longHistory(server)
            #expect(
                try await TestPostgres.strings(store, "SELECT through FROM habitState WHERE habitId = \(habit.id)")
                    == [Self.base.adding(days: 397).description])
            #expect(try await TestPostgres.strings(store, "SELECT count(*)::text FROM habitStateDirty") == ["0"])
            let today = Self.base.adding(days: 400)
            let progress = try await store.progress(of: habit, today: today, need: .summary)
            #expect(progress.timeline.knownFrom > progress.timeline.firstDay)
            #expect(progress.timeline.currentStreak == 3)
            try await HabitStateAgreement.expect(store, today: today, "long history")
        }
    }

    /// Status reads one statement when the days it holds reach back far enough for every habit, and
    /// takes the longer way (a snapshot with the entries the judgement needs) when they do not.
    @Test func statusReadsOneStatementOnlyWhenItsDaysReachFarEnough() async throws {
        try await TestPostgres.withStore { server in
            let (store, habit) = try await Self.longHistory(server)
            let today = Self.base.adding(days: 400)
            let whole = try await store.progress(of: habit, today: today, need: .all)
            func judged(spans: [String: Int32]) async throws -> HabitsToday? {
                let statement = PostgresStore.TodayStatement(accountID: store.accountID, day: today, spans: spans)
                let rows = try await store.client.withConnection { connection in
                    try await PostgresStore.todayRows(connection, statement, logger: store.logger)
                }
                return PostgresStore.judgedToday(rows, today: today)
            }
            let span = Int32(HabitTimeline.resumeSpan(of: .daily))
            let found = try #require(try await judged(spans: ["daily": span]), "one statement is enough")
            #expect(found.habits.count == 1 && found.habits[0].timeline.knownFrom > found.habits[0].timeline.firstDay)
            let far = whole.timeline.lastDay.adding(days: 1)
            #expect(
                HabitStateAgreement.Figures(found.habits[0], from: far) == HabitStateAgreement.Figures(whole, from: far))
            // Days from the one after the state's last on: the judgement also reads that last day.
            #expect(try await judged(spans: ["daily": 0]) == nil)
            try await HabitStateAgreement.expect(store, today: today, "status after either read")
        }
    }

    @Test func aDamagedMissingOrOlderStateIsNotTrustedAndIsRebuilt() async throws {
        try await TestPostgres.withStore { server in
            let (store, habit) = try await Self.longHistory(server)
            let today = Self.base.adding(days: 400)
            let before = try await Self.state(store, habit)
            for damage in [
                "UPDATE habitState SET longest = 999, trailingRun = 999", "DELETE FROM habitState",
                "UPDATE habitState SET version = 0",
            ] {
                try await TestPostgres.execute(store, damage)
                let progress = try await store.progress(of: habit, today: today, need: .summary)
                #expect(progress.timeline.longestStreak.length == 16, "\(damage)")
                #expect(progress.timeline.knownFrom == Self.base, "\(damage): judged whole")
                #expect(try await Self.state(store, habit) == before, "\(damage): rebuilt as it was")
            }
        }
    }

    @Test func aWriteThatBypassesTheStoreStillCounts() async throws {
        try await TestPostgres.withStore { server in
            let (store, habit) = try await Self.longHistory(server)
            let today = Self.base.adding(days: 400)
            // Another program fills a missed day long ago: the trigger notes it, so the state is not trusted.
            try await TestPostgres.execute(
                store,
                """
                INSERT INTO entry (habitId, day, status, source, recordedAt, zone)
                VALUES (\(habit.id), '\(Self.base.adding(days: 5))', 'done', 'manual', now(), 'UTC')
                """)
            #expect(try await TestPostgres.strings(store, "SELECT day FROM habitStateDirty") == [Self.base.adding(days: 5).description])
            let progress = try await store.progress(of: habit, today: today, need: .summary)
            #expect(progress.timeline.longestStreak.length == 22)
            try await HabitStateAgreement.expect(store, today: today, "bypassed")
            #expect(try await TestPostgres.strings(store, "SELECT count(*)::text FROM habitStateDirty") == ["0"])
        }
    }
}

extension PostgresHabitStateTests {
    /// After a bulk load behind the store's back, a write refreshes only the habit it wrote: the
    /// others' notes stay for their readers, so the first write does not rebuild every habit.
    @Test func aWriteRefreshesOnlyTheHabitsItNoted() async throws {
        try await TestPostgres.withStore { server in
            let (store, habit) = try await Self.longHistory(server)
            let other = try await store.addHabit(Habit(name: "Walk", createdDay: Self.base, createdAt: Self.at))
            try await TestPostgres.execute(
                store,
                """
                INSERT INTO entry (habitId, day, status, source, recordedAt, zone)
                SELECT \(other.id), to_char(DATE '\(Self.base)' + d, 'YYYY-MM-DD'), 'done', 'import', now(), 'UTC'
                FROM generate_series(0, 300) d
                """)
            try await store.record(
                Entry(habitID: habit.id, day: Self.base.adding(days: 401), status: .done, recordedAt: Self.at, zone: "UTC"))
            #expect(try await TestPostgres.strings(store, "SELECT habitId::text FROM habitStateDirty") == ["\(other.id)"])
            // Its reader still sees every loaded day.
            let today = Self.base.adding(days: 402)
            #expect(try await store.progress(of: other, today: today, need: .summary).timeline.totalDone == 301)
            try await HabitStateAgreement.expect(store, today: today, "after the load")
        }
    }
}
