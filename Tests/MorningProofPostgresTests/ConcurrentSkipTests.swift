import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 39, "Excuses, counted": a skip of a required habit spends an excuse, and with none left it
/// is refused. Skips sent at once (two phones, a phone and the CLI) must not both spend the last
/// excuse: the budget's check and the skip's write are one transaction, on both engines.
@Suite struct ConcurrentSkipTests {
    static let at = Date(timeIntervalSince1970: 1_772_438_400)  // 2026-03-02T08:00:00Z, a Monday
    static let clock = DayClock(zoneIdentifier: "UTC")!
    static let habitsAtOnce = 6

    @Test(arguments: Engine.available)
    func skipsAtOnceWithOneExcuseLeftSpendItOnce(engine: Engine) async throws {
        try await engine.withStore(poolSize: Self.habitsAtOnce + 2, file: true) { server in
            for round in 0..<4 {
                let account = try #require(
                    try await server.createAccount(
                        email: "skips\(round)-\(UUID())@example.com", passwordHash: "x", timeZone: "UTC", at: Self.at))
                let store = server.scoped(to: account.id)
                try await store.setSetting(SettingKey.excusesPerWeek, to: "1")
                var habits: [Habit] = []
                for index in 0..<Self.habitsAtOnce {
                    habits.append(
                        try await store.addHabit(
                            Habit(
                                name: "Required \(index)", required: true, createdDay: Self.clock.day(at: Self.at),
                                createdAt: Self.at)))
                }
                let service = EntryService(database: store, clock: Self.clock)
                let answers = await withTaskGroup(of: String.self) { group in
                    for habit in habits {
                        group.addTask {
                            do {
                                _ = try await service.record(.skipped, habit: habit, day: nil, now: Self.at)
                                return "skipped"
                            } catch let error as MorningProofError {
                                return error.code ?? "\(error)"
                            } catch {
                                return "\(error)"
                            }
                        }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
                let today = Self.clock.day(at: Self.at)
                var stored = 0
                for habit in habits where try await store.entry(habitID: habit.id, day: today) != nil { stored += 1 }
                #expect(
                    answers.filter { $0 == "skipped" }.count == 1
                        && answers.filter { $0 == "no_excuses_left" }.count == Self.habitsAtOnce - 1,
                    "round \(round) on \(engine): \(answers)")
                #expect(stored == 1, "round \(round) on \(engine): \(stored) skips stored with one excuse left")
                #expect(try await store.excuseBudget().left(on: today) == 0)
            }
        }
    }
}
