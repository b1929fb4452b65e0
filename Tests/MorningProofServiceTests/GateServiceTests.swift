import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite("Gate use cases")
struct GateServiceTests {
    let database: AppDatabase
    let clock = DayClock(zoneIdentifier: "America/New_York")!
    var gate: GateService { GateService(database: database, clock: clock) }
    var entries: EntryService { EntryService(database: database, clock: clock) }
    var checkins: CheckinService { CheckinService(database: database, clock: clock) }

    init() throws {
        database = try AppDatabase.inMemory()
    }

    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    @discardableResult
    func add(_ name: String, _ details: HabitDetails) async throws -> Habit {
        try await HabitService(database: database, clock: clock).add(
            named: name, details, now: Self.at("2026-03-01T07:00:00-05:00"))
    }

    @Test("closed until the required habits are settled and the check-in is yes, across the DST morning")
    func closedThenOpen() async throws {
        let bed = try await add("Make bed", HabitDetails(kind: .photo, required: true))
        let run = try await add("Run", HabitDetails(times: 3, per: "week", required: true))
        try await add("Read", HabitDetails())
        try await checkins.setup(preset: .faith, question: nil, now: Self.at("2026-03-01T07:00:00-05:00"))
        // Sunday 2026-03-08: the clocks went forward at 02:00, so 07:00 is UTC-4.
        let morning = Self.at("2026-03-08T07:00:00-04:00")
        var state = try await gate.state(now: morning)
        #expect(state.day == LocalDay("2026-03-08")!)
        #expect(!state.decision.isOpen)
        #expect(state.decision.checkin == .unanswered)
        #expect(state.decision.pendingHabits.map(\.name) == ["Make bed", "Run"])
        #expect(state.checkin?.texts == CheckinTexts.preset(.faith))
        #expect(state.quoteProblem == nil)
        // A photo habit is done only by its photo (issue 39): the entry a proof records.
        _ = try await database.recordAction(
            Entry(
                habitID: bed.id, day: state.day, status: .done, source: .photo, recordedAt: morning,
                zone: "America/New_York"),
            lastWriterWins: false)
        _ = try await entries.record(.skipped, habit: run, day: nil, now: morning)
        state = try await gate.state(now: morning)
        #expect(state.decision.pendingHabits.isEmpty && !state.decision.isOpen)
        _ = try await checkins.answer(yes: true, now: morning)
        state = try await gate.state(now: morning)
        #expect(state.decision.isOpen && state.decision.routineDone)
        // The evening before (still UTC-5) was another day, and its gate stayed closed.
        await #expect(try gate.state(now: Self.at("2026-03-07T23:30:00-05:00")).day == LocalDay("2026-03-07")!)
        await #expect(!(try gate.state(now: Self.at("2026-03-07T23:30:00-05:00")).decision.isOpen))
        // With the routine done, asking for an unlock uses none.
        let unlock = try await gate.unlock(reason: "flight", now: morning)
        #expect(unlock.outcome == nil)
        await #expect(try database.gateUnlock(on: LocalDay("2026-03-08")!) == nil)
    }

    @Test("an unlock opens a closed gate for the day, once a day, a few times in any 7 days")
    func unlocks() async throws {
        try await database.setSetting(SettingKey.gateUnlocksPerWeek, to: "1")  // the default is 2 excuses
        try await add("Make bed", HabitDetails(required: true))
        let monday = Self.at("2026-03-02T07:00:00-05:00")
        let first = try await gate.unlock(reason: "  early flight ", now: monday)
        #expect(first.outcome == .unlocked(remaining: 0))
        #expect(first.limit == 1)
        #expect(!first.gate.decision.isOpen)  // the gate as it was asked
        let state = try await gate.state(now: Self.at("2026-03-02T08:00:00-05:00"))
        #expect(state.decision.isOpen && !state.decision.routineDone)
        #expect(state.decision.unlockReason == "early flight")
        await #expect(
            try gate.unlock(reason: "again", now: monday).outcome
                == .alreadyUnlocked(GateUnlock(day: LocalDay("2026-03-02")!, at: monday, reason: "early flight")))
        let sunday = try await gate.unlock(reason: "b", now: Self.at("2026-03-08T07:00:00-04:00"))
        #expect(
            sunday.outcome
                == .limitReached(
                    used: [GateUnlock(day: LocalDay("2026-03-02")!, at: monday, reason: "early flight")],
                    nextDay: LocalDay("2026-03-09")!))
        await #expect(
            try gate.unlock(reason: "c", now: Self.at("2026-03-09T07:00:00-04:00")).outcome == .unlocked(remaining: 0))
        await #expect(
            throws: MorningProofError.usage(
                "\(field: .reason) needs a few words: why does the gate have to open today?")
        ) {
            try await gate.unlock(reason: " ", now: Self.at("2026-03-10T07:00:00-04:00"))
        }
        await #expect(
            try database.gateUnlocks(from: LocalDay("2026-03-01")!, through: LocalDay("2026-03-31")!).count == 2)
    }

    @Test("a quotes file gone bad gives the built-in quotes and says why")
    func brokenQuotes() async throws {
        try await database.setSetting(SettingKey.quotesFile, to: "/nonexistent/quotes.json")
        let state = try await gate.state(now: Self.at("2026-03-02T07:00:00-05:00"))
        #expect(state.quoteProblem?.hasPrefix("/nonexistent/quotes.json: no such quotes file") == true)
        #expect(try state.book.active.count == QuoteBook.builtIn().active.count)
    }
}
