import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite("Entry use cases")
struct EntryServiceTests {
    let database: AppDatabase
    let service: EntryService
    let habit: Habit

    init() async throws {
        database = try AppDatabase.inMemory()
        let clock = DayClock(zoneIdentifier: "America/New_York")!
        service = EntryService(database: database, clock: clock)
        habit = try await database.addHabit(
            Habit(name: "Read", createdDay: LocalDay("2026-03-06")!, createdAt: Self.at("2026-03-06T08:00:00-05:00")))
    }

    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    @Test("the recording rule: same status is harmless, a manual entry beats an automatic one")
    func recordRule() {
        let day = LocalDay("2026-03-08")!
        func entry(_ status: EntryStatus, _ source: EntrySource) -> Entry {
            Entry(habitID: 1, day: day, status: status, source: source, recordedAt: Date(), zone: "UTC")
        }
        #expect(RecordOutcome.of(recording: entry(.done, .manual), over: nil) == .recorded)
        #expect(RecordOutcome.of(recording: entry(.done, .manual), over: entry(.done, .metric)) == .unchanged)
        #expect(RecordOutcome.of(recording: entry(.done, .metric), over: entry(.skipped, .manual)) == .keptManual)
        #expect(
            RecordOutcome.of(recording: entry(.done, .manual), over: entry(.skipped, .manual))
                == .replaced(previous: .skipped))
    }

    @Test("done twice is harmless; skip then done replaces; undo clears; the streak spans the 23-hour day")
    func doneSkipUndo() async throws {
        let morning = Self.at("2026-03-08T07:00:00-04:00")  // New York's 23-hour day
        await #expect(
            try service.record(.done, habit: habit, day: "yesterday", now: morning).kind == .recorded(.recorded))
        let first = try await service.record(.done, habit: habit, day: nil, now: morning)
        #expect(first.day == LocalDay("2026-03-08") && first.progress.timeline.currentStreak == 2)
        await #expect(try service.record(.done, habit: habit, day: "today", now: morning).kind == .recorded(.unchanged))
        await #expect(
            try service.record(.skipped, habit: habit, day: "-2", now: morning).kind == .recorded(.recorded))
        await #expect(
            try service.record(.done, habit: habit, day: "2026-03-06", now: morning).kind
                == .recorded(.replaced(previous: .skipped)))
        let undone = try await service.undo(habit: habit, day: nil, now: morning)
        #expect(undone.clearedEntry?.status == .done)
        #expect(undone.progress.timeline.currentStreak == 2)  // today is open again, not broken
        await #expect(try database.entry(habitID: habit.id, day: LocalDay("2026-03-08")!) == nil)
    }

    @Test("a future day, a day before the habit existed and a bad note are refused and store nothing")
    func refused() async throws {
        let now = Self.at("2026-03-08T07:00:00-04:00")
        // Refused by a rule (the server answers 422, the CLI exits 64), not bad input.
        await #expect(
            throws: MorningProofError(.refused, code: "future_day", "2026-03-09 is in the future (today is 2026-03-08)")
        ) {
            try await service.record(.done, habit: habit, day: "2026-03-09", now: now)
        }
        let early = await #expect(throws: MorningProofError.self) {
            try await service.record(.done, habit: habit, day: "2026-03-05", now: now)
        }
        #expect(early?.kind == .refused && early?.code == "before_habit")
        await #expect(throws: MorningProofError.self) {
            try await service.record(.done, habit: habit, day: nil, note: "bad\u{1B}[31m", now: now)
        }
        await #expect(try database.entries(habitID: habit.id).isEmpty)
    }
}

extension EntryChange {
    /// The entry an undo removed, if any.
    var clearedEntry: Entry? {
        if case .cleared(let entry, _) = kind { return entry }
        return nil
    }
}
