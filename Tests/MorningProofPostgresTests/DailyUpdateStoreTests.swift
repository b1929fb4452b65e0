import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// The seed API's daily updates: the same assertions on SQLite and on PostgreSQL.
@Suite struct DailyUpdateStoreTests {
    @Test(arguments: Engine.available)
    func ofFortySimultaneousUpdatesOfOneDayExactlyOneIsStored(engine: Engine) async throws {
        try await engine.withStore(poolSize: 10) { store in
            _ = try await Fixture.account(store, "ada@example.com")
            let inserted = try await Self.simultaneousUpdates(store, tokens: ["token-ada@example.com"], each: 40)
            #expect(inserted == ["token-ada@example.com": 1])
            let history = try #require(
                try await store.dailyUpdateHistory(tokenHash: "token-ada@example.com", at: Fixture.noon) { _ in
                    LocalDay("2026-05-01")
                })
            #expect(history.history.days == [LocalDay("2026-05-01")!])
        }
    }

    @Test(arguments: Engine.available)
    func tenAccountsTimesFortySimultaneousUpdatesStoreOneEach(engine: Engine) async throws {
        try await engine.withStore(poolSize: 10) { store in
            var tokens: [String] = []
            for index in 0..<10 {
                _ = try await Fixture.account(store, "p\(index)@example.com")
                tokens.append("token-p\(index)@example.com")
            }
            let inserted = try await Self.simultaneousUpdates(store, tokens: tokens, each: 40)
            #expect(inserted == Dictionary(uniqueKeysWithValues: tokens.map { ($0, 1) }))
        }
    }

    /// Sends `each` updates of 2026-05-01 per token at once; how many were stored, by token.
    private static func simultaneousUpdates(_ store: any AccountStore, tokens: [String], each: Int)
        async throws -> [String: Int]
    {
        try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for _ in 0..<each {
                for token in tokens {
                    group.addTask {
                        let result = try await store.insertDailyUpdate(tokenHash: token, at: Fixture.noon) { _ in
                            Fixture.update("2026-05-01")
                        }
                        return (token, try #require(result).inserted)
                    }
                }
            }
            return try await group.reduce(into: [:]) { counts, result in
                counts[result.0, default: 0] += result.1 ? 1 : 0
            }
        }
    }

    @Test(arguments: Engine.available)
    func theHistoryHasTheDaysTheUpdateOfTheDayAndTheZoneChanges(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = try await Fixture.account(store, "ada@example.com")
            _ = try await Fixture.account(store, "bo@example.com")
            let token = "token-ada@example.com"
            for day in ["2026-05-03", "2026-04-30", "2026-05-01"] {
                let stored = try await store.insertDailyUpdate(tokenHash: token, at: Fixture.noon) { account in
                    #expect(account.id == ada.id)
                    return Fixture.update(day, score: day == "2026-05-01" ? nil : 7.5)
                }
                #expect(stored?.inserted == true)
            }
            let second = try await store.insertDailyUpdate(tokenHash: token, at: Fixture.noon) { _ in
                Fixture.update("2026-05-03", score: 1)
            }
            #expect(second?.inserted == false)
            _ = try await store.insertDailyUpdate(tokenHash: "token-bo@example.com", at: Fixture.noon) { _ in
                Fixture.update("2026-05-02")
            }
            _ = try await store.changeProfile(
                of: ada.id, timeZone: "Asia/Tokyo", dayStart: nil, weekStart: nil, at: Fixture.hour(2))

            let asked = try #require(
                try await store.dailyUpdateHistory(tokenHash: token, at: Fixture.hour(3)) { account in
                    #expect(account.timeZone == "Asia/Tokyo")
                    return LocalDay("2026-05-03")
                })
            #expect(asked.account.id == ada.id)
            #expect(asked.history.days.map(\.description) == ["2026-04-30", "2026-05-01", "2026-05-03"])
            #expect(asked.history.update == Fixture.update("2026-05-03"))
            #expect(asked.history.zoneChanges.map(\.to.zoneIdentifier) == ["Asia/Tokyo"])

            let noScore = try await store.dailyUpdateHistory(tokenHash: token, at: Fixture.hour(3)) { _ in
                LocalDay("2026-05-01")
            }
            #expect(noScore?.history.update == Fixture.update("2026-05-01", score: nil))
            let none = try await store.dailyUpdateHistory(tokenHash: token, at: Fixture.hour(3)) { _ in
                LocalDay("2026-05-02")
            }
            #expect(none?.history.update == nil)
        }
    }

    @Test(arguments: Engine.available)
    func aBadTokenStoresAndReadsNothing(engine: Engine) async throws {
        try await engine.withStore { store in
            let made = try await store.insertDailyUpdate(tokenHash: "nobody", at: Fixture.noon) { _ in
                Issue.record("made an update for a bad token")
                return Fixture.update("2026-05-01")
            }
            #expect(made == nil)
            #expect(try await store.dailyUpdateHistory(tokenHash: "nobody", at: Fixture.noon) { _ in nil } == nil)
        }
    }

    @Test(arguments: Engine.available)
    func anErrorOfTheMakerStoresNothingAndPassesThrough(engine: Engine) async throws {
        struct NoZone: Error, Equatable {}
        try await engine.withStore { store in
            _ = try await Fixture.account(store, "ada@example.com")
            await #expect(throws: NoZone()) {
                try await store.insertDailyUpdate(tokenHash: "token-ada@example.com", at: Fixture.noon) { _ in
                    throw NoZone()
                }
            }
            let history = try await store.dailyUpdateHistory(tokenHash: "token-ada@example.com", at: Fixture.noon) {
                _ in nil
            }
            #expect(history?.history.days == [])
        }
    }
}
