import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 39, "Excuses, counted": making a habit required spends an excuse for each of its skips of
/// the week, as a skip of a required habit does. Toggles and skips sent at once (two phones, a phone
/// and the CLI) must not both spend the last excuse: the budget's check and the habit's save are one
/// transaction, on both engines, as the skip's is (`ConcurrentSkipTests`).
@Suite struct ConcurrentRequiredToggleTests {
    static let at = Date(timeIntervalSince1970: 1_772_438_400)  // 2026-03-02T08:00:00Z, a Monday
    static let clock = DayClock(zoneIdentifier: "UTC")!
    /// Habits made required at once, each with one free skip today; as many required habits skipped at once.
    static let togglesAtOnce = 3

    @Test(arguments: Engine.available)
    func togglesAndSkipsAtOnceWithOneExcuseLeftSpendItOnce(engine: Engine) async throws {
        try await engine.withStore(poolSize: 2 * Self.togglesAtOnce + 2, file: true) { server in
            let today = Self.clock.day(at: Self.at)
            for round in 0..<4 {
                let account = try #require(
                    try await server.createAccount(
                        email: "toggles\(round)-\(UUID())@example.com", passwordHash: "x", timeZone: "UTC",
                        at: Self.at))
                let store = server.scoped(to: account.id)
                try await store.setSetting(SettingKey.excusesPerWeek, to: "1")
                let entries = EntryService(database: store, clock: Self.clock)
                let habits = HabitService(database: store, clock: Self.clock)
                var toggled: [Habit] = []
                var skipped: [Habit] = []
                for index in 0..<Self.togglesAtOnce {
                    let free = try await store.addHabit(
                        Habit(name: "Free \(index)", createdDay: today, createdAt: Self.at))
                    _ = try await entries.record(.skipped, habit: free, day: nil, now: Self.at)
                    toggled.append(free)
                    skipped.append(
                        try await store.addHabit(
                            Habit(name: "Required \(index)", required: true, createdDay: today, createdAt: Self.at)))
                }
                #expect(try await store.excuseBudget().left(on: today) == 1, "free skips spend nothing")
                let answers = await withTaskGroup(of: String.self) { group in
                    for habit in toggled {
                        group.addTask {
                            await Self.answer {
                                _ = try await habits.edit(habit, HabitDetails(required: true), now: Self.at)
                            }
                        }
                    }
                    for habit in skipped {
                        group.addTask {
                            await Self.answer {
                                _ = try await entries.record(.skipped, habit: habit, day: nil, now: Self.at)
                            }
                        }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
                var spent = 0
                for habit in toggled where try await store.habit(id: habit.id)?.required == true { spent += 1 }
                for habit in skipped where try await store.entry(habitID: habit.id, day: today) != nil { spent += 1 }
                #expect(
                    answers.filter { $0 == "ok" }.count == 1
                        && answers.filter { $0 == "no_excuses_left" }.count == 2 * Self.togglesAtOnce - 1,
                    "round \(round) on \(engine): \(answers)")
                #expect(spent == 1, "round \(round) on \(engine): \(spent) excuses spent with one left")
                #expect(try await store.excuseBudget().left(on: today) == 0)
            }
        }
    }

    /// "ok", or the code of the error `body` threw.
    static func answer(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "ok"
        } catch let error as MorningProofError {
            return error.code ?? "\(error)"
        } catch {
            return "\(error)"
        }
    }
}
