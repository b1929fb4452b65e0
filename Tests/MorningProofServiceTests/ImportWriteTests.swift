import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofSQLite
import MorningProofStoreContract
import Testing

/// How an applied import writes its entries: each day once, as recording them one by one would.
@Suite struct ImportWriteTests {
    static let now = ISOInstant.parse("2026-03-09T12:00:00Z")!

    static func entry(_ day: String, _ status: EntryStatus, _ source: EntrySource = .import, note: String? = nil)
        -> PortableEntry
    {
        PortableEntry(day: LocalDay(day)!, status: status, source: source, note: note, recordedAt: now, zone: "UTC")
    }

    /// A hand-edited export can hold a day twice: a later entry replaces an earlier one unless the
    /// earlier is manual, and the same status again changes nothing (`RecordOutcome`).
    @Test func aDayTheImportHoldsTwiceEndsAsRecordingItTwiceWould() async throws {
        let database = try AppDatabase.inMemory()
        let habit = PortableHabit(
            name: "Read", createdDay: LocalDay("2026-03-01")!, createdAt: Self.now,
            entries: [
                Self.entry("2026-03-01", .done), Self.entry("2026-03-01", .skipped),
                Self.entry("2026-03-02", .done, .manual), Self.entry("2026-03-02", .skipped),
                Self.entry("2026-03-03", .skipped), Self.entry("2026-03-03", .skipped, note: "second"),
                Self.entry("2026-03-04", .done),
            ])
        let plan = try await database.importBatch(ImportBatch(habits: [habit]), merge: true, apply: true)
        #expect(plan.entriesAdded == 7)
        let stored = try await #require(try database.habits(includeArchived: true).first { $0.name == "Read" })
        let entries = try await database.entries(habitID: stored.id)
        #expect(entries.map(\.day.description) == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"])
        #expect(entries.map(\.status) == [.skipped, .done, .skipped, .done])
        #expect(entries.map(\.source) == [.import, .manual, .import, .import])
        #expect(entries[2].note == nil)
    }

    /// Merged into a habit with days of its own: only the days not stored are written.
    @Test func aMergeWritesOnlyTheNewDays() async throws {
        let database = try AppDatabase.inMemory()
        let here = try await database.addHabit(
            Habit(name: "Walk", createdDay: LocalDay("2026-03-01")!, createdAt: Self.now))
        try await database.record(
            Entry(
                habitID: here.id, day: LocalDay("2026-03-05")!, status: .skipped, source: .manual,
                recordedAt: Self.now, zone: "UTC"))
        let days = (1...9).map { String(format: "2026-03-%02d", $0) }
        let imported = PortableHabit(
            name: "walk", createdDay: LocalDay("2026-02-20")!, createdAt: Self.now,
            entries: days.map { Self.entry($0, .done) })
        let plan = try await database.importBatch(ImportBatch(habits: [imported]), merge: true, apply: true)
        #expect(plan.entriesAdded == 8 && plan.conflicts == 1)
        let entries = try await database.entries(habitID: here.id)
        #expect(entries.count == 9)
        #expect(entries.first { $0.day == LocalDay("2026-03-05")! }?.status == .skipped)
        let statuses = try database.dayStatuses(habitID: here.id)[here.id] ?? []
        #expect(statuses.count == 9)
    }
}
