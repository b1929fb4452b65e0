import Foundation
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import PropertyBased
import Testing

/// The excuse budget and the habit states it shapes (issue 39): after random entries, skips,
/// undos, unlocks, zone changes and budget changes, on both engines, the budget is what a model of
/// the whole history gives, and every reader (the stored states included) judges each habit as
/// that whole history does, an empty travel day with no excuse left being a missed day.
@Suite struct ExcuseBudgetStateTests {
    static let zones = ["UTC", "America/New_York", "Asia/Tokyo", "Europe/Berlin"]
    static let base = LocalDay("2026-01-05")!
    static let at = Date(timeIntervalSince1970: 1_767_600_000)
    static let schedules: [Schedule] = [.daily, .daily, .everyDays(2), .timesInDays(times: 2, days: 4)]

    /// What the test knows of the account's history, judged without the store.
    struct Model {
        var habits: [Habit] = []
        var entries: [Int64: [LocalDay: EntryStatus]] = [:]
        var unlocks: Set<LocalDay> = []
        var perWeek: Int?
        var clock = DayClock(zoneIdentifier: "UTC")!
        var changes: [ZoneChange] = []

        var budget: ExcuseBudget {
            let required = habits.filter(\.required)
            return ExcuseBudget(
                perWeek: perWeek ?? ExcuseBudget.defaultPerWeek, unlockDays: unlocks.sorted(),
                required: required.map { ExcuseBudget.RequiredHabit(id: $0.id, firstDay: $0.createdDay) },
                entries: required.flatMap { habit in
                    (entries[habit.id] ?? [:]).map { (habitID: habit.id, day: $0.key, status: $0.value) }
                }, travelDays: changes.travelDays)
        }

        /// Each habit judged over its whole history as of `today`.
        func progress(today: LocalDay) -> [HabitProgress] {
            let budget = budget, bridged = changes.bridgedDays(clock: clock)
            return habits.map { habit in
                HabitProgress(
                    habit: habit,
                    timeline: HabitTimeline(
                        schedule: habit.schedule, firstDay: min(habit.createdDay, today), today: today,
                        entries: entries[habit.id] ?? [:],
                        travelDays: bridged.subtracting(budget.missedTravel[habit.id] ?? [])))
            }
        }
    }

    @Test(.shrinking(false), arguments: Engine.available)
    func theStateAfterRandomHistoryIsTheJudgementOfTheWholeHistory(engine: Engine) async throws {
        try await engine.withStore { server in
            let operation = zip(Gen.int(in: 0...11), Gen.int(in: 0...34), Gen.int(in: 0...11))
            var number = 0
            var missedSeen = 0
            await propertyCheck(count: 10, input: operation.array(of: 15...45), Gen.int(in: 0...255)) {
                operations, pick in
                number += 1
                let account = try #require(
                    try await server.createAccount(
                        email: "excuses\(number)-\(UUID())@example.com", passwordHash: "x", timeZone: "UTC",
                        at: Self.at))
                let store = server.scoped(to: account.id)
                var model = Model()
                for index in 0..<3 {
                    model.habits.append(
                        try await store.addHabit(
                            Habit(
                                name: "H\(index)", schedule: Self.schedules[(pick >> (2 * index)) & 3],
                                required: index < 2 || pick & 64 != 0, createdDay: Self.base, createdAt: Self.at)))
                }
                for (step, (kind, offset, value)) in operations.enumerated() {
                    let habit = model.habits[value % 3]
                    let day = Self.base.adding(days: offset)
                    let instant = Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400 + 43_200)
                    switch kind {
                    case 0...5:
                        let status: EntryStatus = kind >= 4 ? .skipped : .done
                        try await store.record(
                            Entry(habitID: habit.id, day: day, status: status, recordedAt: Self.at, zone: "UTC"))
                        model.entries[habit.id, default: [:]][day] = status
                    case 6:
                        _ = try await store.clearDay(habitID: habit.id, day: day)
                        model.entries[habit.id]?[day] = nil
                    case 7, 8:
                        let zone = Self.zones[value % Self.zones.count]
                        _ = try await server.changeProfile(
                            of: account.id, timeZone: zone, dayStart: nil, weekStart: nil, at: instant)
                        let clock = DayClock(zoneIdentifier: zone)!
                        if clock != model.clock {
                            model.changes.append(ZoneChange(at: instant, from: model.clock, to: clock))
                            model.clock = clock
                        }
                    case 9:
                        let perWeek = value % 4
                        try await store.setSetting(SettingKey.excusesPerWeek, to: String(perWeek))
                        model.perWeek = perWeek
                    default:
                        let outcome = try await store.unlockGate(day: day, at: instant, reason: "test", limit: 7)
                        if case .unlocked = outcome { model.unlocks.insert(day) }
                    }
                    let context = "after \(step) on \(engine): \(operations) pick \(pick)"
                    let budget = try await store.excuseBudget()
                    #expect(budget == model.budget, "the budget \(context)")
                    guard budget == model.budget else { return }
                    missedSeen += budget.missedTravel.values.map(\.count).reduce(0, +)
                    for today in [day.adding(days: 1 + value), Self.base.adding(days: 45)] {
                        guard try await HabitStateAgreement.expect(store, today: today, context) != nil else { return }
                        let whole = try await store.progress(of: model.habits, today: today, need: .all)
                        for (found, expected) in zip(whole, model.progress(today: today)) {
                            let from = found.timeline.firstDay
                            #expect(
                                HabitStateAgreement.Figures(found, from: from)
                                    == HabitStateAgreement.Figures(expected, from: from),
                                "\(found.habit.name) today \(today) \(context)")
                        }
                    }
                }
            }
            #expect(missedSeen > 0, "no empty travel day went without an excuse: the budget was never tested")
        }
    }
}
