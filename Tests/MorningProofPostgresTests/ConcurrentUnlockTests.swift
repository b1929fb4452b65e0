import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 39: a gate unlock and a skip of a required habit sent at the same moment, with one excuse
/// left, must not both spend it: the unlock judges the budget inside its transaction, as the skip does.
@Suite struct ConcurrentUnlockTests {
    static let at = Date(timeIntervalSince1970: 1_772_438_400)  // 2026-03-02T08:00:00Z, a Monday
    static let clock = DayClock(zoneIdentifier: "UTC")!

    @Test(arguments: Engine.available)
    func anUnlockAndASkipAtOnceSpendTheLastExcuseOnce(engine: Engine) async throws {
        try await engine.withStore(poolSize: 6, file: true) { server in
            for round in 0..<12 {
                let account = try #require(
                    try await server.createAccount(
                        email: "unlock\(round)-\(UUID())@example.com", passwordHash: "x", timeZone: "UTC", at: Self.at))
                let store = server.scoped(to: account.id)
                try await store.setSetting(SettingKey.excusesPerWeek, to: "1")
                let today = Self.clock.day(at: Self.at)
                var habits: [Habit] = []
                for index in 0..<2 {
                    habits.append(
                        try await store.addHabit(
                            Habit(name: "Required \(index)", required: true, createdDay: today, createdAt: Self.at)))
                }
                let skippedHabit = habits[0]
                let entries = EntryService(database: store, clock: Self.clock)
                let gate = GateService(database: store, clock: Self.clock)
                let answers = await withTaskGroup(of: String.self) { group in
                    group.addTask {
                        do {
                            _ = try await entries.record(.skipped, habit: skippedHabit, day: nil, now: Self.at)
                            return "skipped"
                        } catch let error as MorningProofError {
                            return error.code ?? "\(error)"
                        } catch {
                            return "\(error)"
                        }
                    }
                    group.addTask {
                        do {
                            let result = try await gate.unlock(reason: "a long night at the hospital", now: Self.at)
                            if case .unlocked = result.outcome { return "unlocked" }
                            return "refused"
                        } catch {
                            return "\(error)"
                        }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
                let spent = answers.filter { $0 == "skipped" || $0 == "unlocked" }.count
                #expect(spent == 1, "round \(round) on \(engine): \(answers.sorted())")
                #expect(try await store.excuseBudget().left(on: today) == 0)
            }
        }
    }
}
