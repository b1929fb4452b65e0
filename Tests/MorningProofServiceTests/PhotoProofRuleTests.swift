import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

/// Issue 39 in the library: a photo habit is done only by a photo; a habit's first day set by hand.
@Suite("A photo habit needs its photo; a habit's first day")
struct PhotoProofRuleTests {
    let database: AppDatabase
    let clock = DayClock(zoneIdentifier: "Europe/Berlin")!
    let now = ISOInstant.parse("2026-11-20T07:00:00+01:00")!

    init() throws { database = try AppDatabase.inMemory() }

    var habits: HabitService { HabitService(database: database, clock: clock) }
    var entries: EntryService { EntryService(database: database, clock: clock) }

    @Test("done by hand on a photo habit is refused with proof_required and stores nothing; skip and undo stay")
    func photoHabitNeedsAPhoto() async throws {
        let bed = try await habits.add(named: "Make bed", HabitDetails(kind: .photo), now: now)
        let refused = await #expect(throws: MorningProofError.self) {
            try await entries.record(.done, habit: bed, day: nil, now: now)
        }
        #expect(refused?.kind == .refused && refused?.code == "proof_required")
        #expect(refused?.message.contains("done only by a photo") == true)
        await #expect(try database.entries(habitID: bed.id).isEmpty)
        #expect(try await entries.record(.skipped, habit: bed, day: nil, now: now).kind == .recorded(.recorded))
        _ = try await entries.undo(habit: bed, day: nil, now: now)
        await #expect(try database.entries(habitID: bed.id).isEmpty)
        // A habit recorded by hand is done by hand, as before.
        let read = try await habits.add(named: "Read", HabitDetails(), now: now)
        #expect(try await entries.record(.done, habit: read, day: nil, now: now).kind == .recorded(.recorded))
    }

    @Test("a first day in the past lets earlier days be recorded; refused for a photo habit, a future or bad day")
    func firstDay() async throws {
        let read = try await habits.add(named: "Read", HabitDetails(), since: "2026-11-02", now: now)
        #expect(read.createdDay == LocalDay("2026-11-02"))
        _ = try await entries.record(.done, habit: read, day: "2026-11-02", now: now)
        let change = try await entries.record(.done, habit: read, day: "2026-11-03", now: now)
        #expect(change.progress.timeline.longestStreak.length == 2)
        #expect(
            try await habits.add(named: "Walk", HabitDetails(), since: "-3", now: now).createdDay
                == LocalDay("2026-11-17"))
        #expect(
            try await habits.add(named: "Bed", HabitDetails(kind: .photo), since: "today", now: now).createdDay
                == LocalDay("2026-11-20"))
        for (name, details, since, code) in [
            ("Make bed", HabitDetails(kind: .photo), "2026-11-02", "proof_required"),
            ("Run", HabitDetails(), "2026-11-21", "future_day"),
            ("Run", HabitDetails(), "2026-13-01", nil),
        ] as [(String, HabitDetails, String, String?)] {
            let error = await #expect(throws: MorningProofError.self) {
                try await habits.add(named: name, details, since: since, now: now)
            }
            #expect(error?.code == code, "\(since): \(String(describing: error))")
        }
        await #expect(try database.habits().map(\.name).sorted() == ["Bed", "Read", "Walk"])
    }
}
