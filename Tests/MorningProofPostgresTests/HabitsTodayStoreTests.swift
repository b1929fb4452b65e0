import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// What status reads at once (`habitsToday`): the same answer on SQLite and on PostgreSQL, where it
/// is one snapshot of two statements.
@Suite struct HabitsTodayStoreTests {
    /// Active habits only, in creation order, each with its progress and its entry of the day (source,
    /// value and note intact); an archived habit's entry and another account's are not in it.
    @Test(arguments: Engine.available)
    func statusReadsActiveHabitsWithTheirEntriesOfTheDay(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = store.scoped(to: try await Fixture.account(store, "ada@example.com").id)
            let bob = store.scoped(to: try await Fixture.account(store, "bob@example.com").id)
            let walk = try await ada.addHabit(Fixture.habit("Walk", created: "2026-04-20"))
            let steps = try await ada.addHabit(Fixture.habit("Steps", kind: .metric, created: "2026-04-20"))
            var old = try await ada.addHabit(Fixture.habit("Old", created: "2026-04-20"))
            let other = try await bob.addHabit(Fixture.habit("Walk", created: "2026-04-20"))
            for day in ["2026-04-28", "2026-04-29", "2026-04-30"] { try await ada.record(Fixture.entry(walk.id, day)) }
            let counted = Entry(
                habitID: steps.id, day: Fixture.day, status: .done, value: 10_250, source: .metric,
                note: "from the phone", recordedAt: Fixture.noon, zone: "Europe/Istanbul")
            try await ada.record(counted)
            try await ada.record(Fixture.entry(old.id, "2026-05-01"))
            old.archived = true
            try await ada.updateHabit(old)
            try await bob.record(Fixture.entry(other.id, "2026-05-01"))

            // Twice: the first read builds the states that the second carries on from.
            for _ in 0..<2 {
                let found = try await ada.habitsToday(Fixture.day)
                #expect(found.habits.map(\.habit.name) == ["Walk", "Steps"])
                #expect(found.entries == [steps.id: counted])
                #expect(found.habits.map(\.state) == [.pending, .done])
                #expect(found.habits[0].timeline.currentStreak == 3)
            }
            let nobody = try await Fixture.account(store, "cy@example.com")
            let empty = try await store.scoped(to: nobody.id).habitsToday(Fixture.day)
            #expect(empty.habits.isEmpty && empty.entries.isEmpty)
        }
    }

    /// The clock of a signed-in request, taken from the profile its token check read: the clock the
    /// store reads; not found while the account has no zone.
    @Test(arguments: Engine.available)
    func theSignedInClockIsTheAccountsClock(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = try await Fixture.account(store, "ada@example.com")
            let scoped = store.scoped(to: ada.id)
            let signedIn = try #require(try await store.account(tokenHash: "token-ada@example.com", at: Fixture.noon, scopes: [.full]))
            #expect(try await scoped.clock(signedIn: signedIn) == DayClock(zoneIdentifier: "Europe/Istanbul", dayStart: 0))
            #expect(try await scoped.clock(signedIn: signedIn) == scoped.clock())
            let nomad = try await Fixture.account(store, "nomad@example.com", zone: nil)
            await #expect(throws: StoreError.self) { try await store.scoped(to: nomad.id).clock(signedIn: nomad) }
        }
    }
}
