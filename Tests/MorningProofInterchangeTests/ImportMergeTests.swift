import Foundation
import MorningProofCore
import Testing

@testable import MorningProofInterchange

@Suite struct ImportMergeTests {
    static let now = Date(timeIntervalSince1970: 1_773_057_600)

    static func entry(_ day: String, _ status: EntryStatus, source: EntrySource = .import) -> PortableEntry {
        PortableEntry(day: LocalDay(day)!, status: status, source: source, recordedAt: now, zone: "UTC")
    }

    static let stored = Habit(
        id: 7, name: "Meditate", createdDay: LocalDay("2026-03-01")!, createdAt: now)

    static func storedEntries() -> [LocalDay: Entry] {
        [
            ("2026-03-01", EntryStatus.done, EntrySource.manual), ("2026-03-02", .done, .manual),
            ("2026-03-03", .skipped, .manual), ("2026-03-04", .done, .metric),
        ].reduce(into: [:]) {
            $0[LocalDay($1.0)!] = Entry(
                habitID: 7, day: LocalDay($1.0)!, status: $1.1, source: $1.2, recordedAt: now, zone: "UTC")
        }
    }

    static let imported = PortableHabit(
        name: "meditate", schedule: .everyDays(2), createdDay: LocalDay("2026-02-27")!, createdAt: now,
        entries: [
            entry("2026-02-27", .done), entry("2026-02-28", .skipped), entry("2026-03-01", .done),
            entry("2026-03-02", .skipped), entry("2026-03-03", .done), entry("2026-03-04", .skipped),
            entry("2026-03-05", .done),
        ])

    func plan(_ habits: [PortableHabit], merge: Bool = true) throws -> ImportPlan {
        try ImportMerge.plan(
            ImportBatch(habits: habits), stored: [Self.stored], entries: { _ in Self.storedEntries() }, merge: merge)
    }

    @Test func whatIsHereWinsOnEveryDayItHolds() throws {
        let plan = try plan([Self.imported])
        let item = try #require(plan.items.first)
        #expect(item.mergeInto?.id == 7)
        // Only days stored nowhere here are added.
        #expect(item.newEntries.map(\.day.description) == ["2026-02-27", "2026-02-28", "2026-03-05"])
        #expect(item.alreadyHere == 1)
        // A manual entry is never replaced, and neither is an automatic one.
        #expect(
            item.conflicts == [
                .init(day: LocalDay("2026-03-02")!, here: .done, hereSource: .manual, imported: .skipped),
                .init(day: LocalDay("2026-03-03")!, here: .skipped, hereSource: .manual, imported: .done),
                .init(day: LocalDay("2026-03-04")!, here: .done, hereSource: .metric, imported: .skipped),
            ])
        #expect(item.differences == ["schedule: daily here, every 2 days imported"])
        // The stored habit's history reaches back to the oldest day added.
        #expect(item.newCreatedDay == LocalDay("2026-02-27"))
        #expect(plan.habitsCreated == 0 && plan.habitsMerged == 1 && plan.entriesAdded == 3 && plan.conflicts == 3)
        #expect(plan.dayRange == LocalDay("2026-02-27")!...LocalDay("2026-03-05")!)
    }

    @Test func aNewNameIsCreatedWithAllItsEntries() throws {
        var other = Self.imported
        other.name = "Read"
        let plan = try plan([other])
        #expect(plan.items.first?.mergeInto == nil)
        #expect(plan.items.first?.newEntries.count == 7)
        #expect(plan.habitsCreated == 1 && plan.conflicts == 0)
    }

    @Test func withoutMergeATakenNameRefusesEverything() {
        var other = Self.imported
        other.name = "Read"
        #expect(throws: MorningProofError(
            .dataError, "\"Meditate\" already exists here; nothing was imported\(hint: .mergeInstead(count: 1))"
        )) {
            try plan([other, Self.imported], merge: false)
        }
        #expect(throws: Never.self) { try plan([other], merge: false) }
    }

    @Test func importingWhatIsHereChangesNothing() throws {
        let same = PortableHabit(
            name: "Meditate", createdDay: LocalDay("2026-03-01")!, createdAt: Self.now,
            entries: [Self.entry("2026-03-01", .done), Self.entry("2026-03-03", .skipped)])
        let plan = try plan([same])
        #expect(plan.isEmpty)
        #expect(plan.items.first?.alreadyHere == 2)
        #expect(plan.items.first?.differences == [])
    }
}
