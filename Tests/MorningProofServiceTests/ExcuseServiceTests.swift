import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

/// Issue 39, "Excuses, counted": skips of required habits and gate unlocks spend one weekly budget.
@Suite("Excuses counted")
struct ExcuseServiceTests {
    let database: AppDatabase
    let clock = DayClock(zoneIdentifier: "Europe/Berlin")!
    var gate: GateService { GateService(database: database, clock: clock) }
    var entries: EntryService { EntryService(database: database, clock: clock) }

    init() throws {
        database = try AppDatabase.inMemory()
    }

    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    func add(_ name: String, required: Bool) async throws -> Habit {
        try await HabitService(database: database, clock: clock).add(
            named: name, HabitDetails(required: required), now: Self.at("2026-03-01T07:00:00+01:00"))
    }

    /// Monday 2 March to Friday 6 March 2026, Berlin mornings.
    static func morning(_ day: Int) -> Date { at("2026-03-0\(day)T07:00:00+01:00") }

    @Test("a third skip of a required habit in 7 days is refused with per-week 2; skips of others stay free")
    func thirdRequiredSkipRefused() async throws {
        try await database.setSetting(SettingKey.gateUnlocksPerWeek, to: "2")
        let bed = try await add("Make bed", required: true)
        let read = try await add("Read", required: false)
        _ = try await entries.record(.skipped, habit: bed, day: nil, now: Self.morning(2))
        _ = try await entries.record(.skipped, habit: bed, day: nil, now: Self.morning(3))
        for day in 2...6 { _ = try await entries.record(.skipped, habit: read, day: nil, now: Self.morning(day)) }
        await #expect(
            throws: MorningProofError(
                .refused, code: "no_excuses_left", "No excuses left this week; the next comes back on Monday")
        ) {
            try await entries.record(.skipped, habit: bed, day: nil, now: Self.morning(4))
        }
        await #expect(try database.entry(habitID: bed.id, day: LocalDay("2026-03-04")!) == nil)
        // Skipping an already skipped day spends nothing more; on Monday 9 March one came back.
        _ = try await entries.record(.skipped, habit: bed, day: "2026-03-03", now: Self.morning(4))
        _ = try await entries.record(.skipped, habit: bed, day: nil, now: Self.at("2026-03-09T07:00:00+01:00"))
    }

    @Test("after two skips of required habits, a gate unlock is refused, with the day one comes back")
    func unlockAfterTwoRequiredSkipsRefused() async throws {
        try await database.setSetting(SettingKey.gateUnlocksPerWeek, to: "2")
        let bed = try await add("Make bed", required: true)
        let run = try await add("Run", required: true)
        _ = try await entries.record(.skipped, habit: bed, day: nil, now: Self.morning(2))
        _ = try await entries.record(.skipped, habit: run, day: nil, now: Self.morning(3))
        let refused = try await gate.unlock(reason: "late night", now: Self.morning(4))
        guard case .limitReached(let used, let next) = refused.outcome else {
            Issue.record("the unlock was not refused: \(String(describing: refused.outcome))")
            return
        }
        #expect(used.isEmpty && next == LocalDay("2026-03-09")!)
        await #expect(try database.gateUnlock(on: LocalDay("2026-03-04")!) == nil)
        await #expect(!(try gate.state(now: Self.morning(4)).decision.isOpen))
    }

    @Test("making a habit required by name judges its free skips of the week against the excuses left")
    func editByNameJudgesTheBudget() async throws {
        let read = try await add("Read", required: false)
        for day in 2...4 { _ = try await entries.record(.skipped, habit: read, day: nil, now: Self.morning(day)) }
        let habits = HabitService(database: database, clock: clock)
        await #expect(
            throws: MorningProofError(
                .refused, code: "no_excuses_left",
                "required, it would spend an excuse for each of its 3 skips of the last 7 days, and 2 are left this week"
            )
        ) {
            try await habits.edit(named: "Read", HabitDetails(required: true), now: Self.morning(4))
        }
        await #expect(try database.habit(id: read.id)?.required == false)
        // With two skips, the two excuses left pay for them.
        _ = try await entries.record(.done, habit: read, day: "2026-03-02", now: Self.morning(4))
        #expect(try await habits.edit(named: "Read", HabitDetails(required: true), now: Self.morning(4)).habit.required)
        #expect(try await database.excuseBudget().left(on: LocalDay("2026-03-04")!) == 0)
    }

    @Test("an archived required habit spends no excuse on a travel day; brought back, its skips of the week do")
    func archivedHabitSpendsNothing() async throws {
        let bed = try await add("Make bed", required: true)
        let habits = HabitService(database: database, clock: clock)
        _ = try await habits.archive(named: "Make bed", now: Self.morning(2))
        // Tuesday: to New York, a travel day that the archived habit left empty.
        try await database.changeClock(to: DayClock(zoneIdentifier: "America/New_York")!, at: Self.morning(3))
        #expect(try await database.excuseBudget().left(on: LocalDay("2026-03-03")!) == 2)
        // Archived, its skips are free; brought back, each skip of the week spends an excuse, or it stays archived.
        for day in 3...5 { _ = try await entries.record(.skipped, habit: bed, day: nil, now: Self.morning(day)) }
        await #expect(throws: MorningProofError.self) {
            try await habits.archive(named: "Make bed", archived: false, now: Self.morning(5))
        }
        #expect(try await database.habit(id: bed.id)?.archived == true)
    }
}
