import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 39, "Excuses, counted": a skip of a habit that is not required yet, sent at the moment a
/// PATCH makes it required, must not skip the budget. The skip is judged against the habit as it
/// was read when the request began (as every route and command reads it), so unless the store reads
/// "required" again inside the transaction that judges the budget and writes the entry, the toggle
/// can land in between: the skip is judged free, the habit is required, and the excuses spent pass
/// the budget. Many skip+toggle pairs at once, on both engines: the required habits skipped today
/// never pass the budget, and every one of them is counted by it.
@Suite struct ConcurrentSkipToggleTests {
    static let at = Date(timeIntervalSince1970: 1_772_438_400)  // 2026-03-02T08:00:00Z, a Monday
    static let clock = DayClock(zoneIdentifier: "UTC")!
    static let perWeek = 2
    /// Habits per round, each skipped and made required at once.
    static let pairs = 8

    @Test(arguments: Engine.available)
    func skipsAndToggleOfTheSameHabitsAtOnceNeverOverspend(engine: Engine) async throws {
        try await engine.withStore(poolSize: 2 * Self.pairs + 2, file: true) { server in
            let today = Self.clock.day(at: Self.at)
            var overspent: [Int] = []
            for round in 0..<6 {
                let account = try #require(
                    try await server.createAccount(
                        email: "pairs\(round)-\(UUID())@example.com", passwordHash: "x", timeZone: "UTC", at: Self.at))
                let store = server.scoped(to: account.id)
                try await store.setSetting(SettingKey.excusesPerWeek, to: "\(Self.perWeek)")
                let entries = EntryService(database: store, clock: Self.clock)
                let habits = HabitService(database: store, clock: Self.clock)
                var free: [Habit] = []
                for index in 0..<Self.pairs {
                    free.append(
                        try await store.addHabit(Habit(name: "Habit \(index)", createdDay: today, createdAt: Self.at)))
                }
                let answers = await withTaskGroup(of: String.self) { group in
                    for habit in free {
                        group.addTask {
                            await ConcurrentRequiredToggleTests.answer {
                                _ = try await habits.edit(habit, HabitDetails(required: true), now: Self.at)
                            }
                        }
                        group.addTask {
                            await ConcurrentRequiredToggleTests.answer {
                                _ = try await entries.record(.skipped, habit: habit, day: nil, now: Self.at)
                            }
                        }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
                var requiredSkips = 0
                for habit in free {
                    let required = try await store.habit(id: habit.id)?.required == true
                    let skipped = try await store.entry(habitID: habit.id, day: today)?.status == .skipped
                    if required && skipped { requiredSkips += 1 }
                }
                let left = try await store.excuseBudget().left(on: today)
                if requiredSkips > Self.perWeek { overspent.append(requiredSkips) }
                #expect(
                    requiredSkips <= Self.perWeek,
                    "round \(round) on \(engine): \(requiredSkips) required habits skipped with \(Self.perWeek) excuses: \(answers.sorted())"
                )
                #expect(left == max(0, Self.perWeek - requiredSkips), "round \(round) on \(engine): \(left) left")
                #expect(
                    answers.allSatisfy { $0 == "ok" || $0 == "no_excuses_left" }, "round \(round): \(answers.sorted())")
            }
            print("\(engine): rounds that overspent the budget of \(Self.perWeek): \(overspent)")
        }
    }
}
