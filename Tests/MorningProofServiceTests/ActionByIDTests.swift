import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

/// The one-call actions the API makes on a habit by its id: each finds the habit (not found for
/// none), acts, and gives what the route encodes.
@Suite("Habit actions by id")
struct ActionByIDTests {
    let database: AppDatabase
    let clock = DayClock(zoneIdentifier: "America/New_York")!
    let now = ISOInstant.parse("2026-03-08T07:00:00-04:00")!
    var habits: HabitService { HabitService(database: database, clock: clock) }
    var entries: EntryService { EntryService(database: database, clock: clock) }

    init() throws {
        database = try AppDatabase.inMemory()
    }

    @Test func habitsAreCreatedViewedListedEditedAndRemovedById() async throws {
        let read = try await habits.create(named: "Read", HabitDetails(), now: now)
        #expect(read.habit.name == "Read" && read.progress.timeline.currentStreak == 0 && read.today == nil)
        let walk = try await habits.create(named: "Walk", HabitDetails(metric: "steps", atLeast: "8000"), now: now)
        #expect(try await habits.view(id: walk.habit.id, now: now).habit.goal?.target == 8_000)
        let archived = try await habits.edit(
            id: walk.habit.id, rename: "Stroll", archived: true, HabitDetails(), now: now)
        #expect(archived.habit.name == "Stroll" && archived.habit.archived)
        #expect(try await habits.list(includeArchived: false, now: now).map(\.habit.name) == ["Read"])
        #expect(try await habits.list(includeArchived: true, now: now).count == 2)
        #expect(try await habits.remove(id: walk.habit.id) == 0)
        await #expect(throws: StoreError.noHabit(walk.habit.id)) { try await habits.view(id: walk.habit.id, now: now) }
    }

    @Test func entriesAreRecordedListedInARangeAndUndoneById() async throws {
        let read = try await habits.create(
            named: "Read", HabitDetails(), now: ISOInstant.parse("2026-03-01T08:00:00-05:00")!)
        let id = read.habit.id
        for day in ["2026-03-02", "2026-03-04", "2026-03-06"] {
            _ = try await entries.record(.done, habitID: id, day: day, now: now)
        }
        let recorded = try await entries.record(.skipped, habitID: id, day: "today", note: "ill", now: now)
        #expect(recorded.change.kind == .recorded(.recorded))
        #expect(
            recorded.entry?.status == .skipped && recorded.entry?.note == "ill"
                && recorded.entry?.day == recorded.change.day)
        let middle = try await entries.entries(habitID: id, from: "2026-03-03", to: "2026-03-06", now: now)
        #expect(middle.map(\.day.description) == ["2026-03-04", "2026-03-06"])
        #expect(try await entries.entries(habitID: id, from: "2026-03-06", to: "2026-03-03", now: now).isEmpty)
        #expect(try await entries.entries(habitID: id, from: nil, to: nil, now: now).count == 4)
        let undone = try await entries.undo(habitID: id, day: "2026-03-04", now: now)
        #expect(undone.change.kind != .cleared(entry: nil, answer: nil))
        #expect(try await entries.entries(habitID: id, from: nil, to: nil, now: now).count == 3)
        await #expect(throws: StoreError.noHabit(999)) {
            try await entries.record(.done, habitID: 999, day: nil, now: now)
        }
    }

    @Test func aReportFindsTheHabitFirstAndAChartChecksItsWeeksFirst() async throws {
        let read = try await habits.create(named: "Read", HabitDetails(), now: now)
        let reports = ReportService(database: database, clock: clock)
        #expect(try await reports.report(habitID: read.habit.id, weeks: 4, now: now).habits.count == 1)
        // The order the API answers in: 404 before a bad span for a report, the span first for a chart.
        await #expect(throws: StoreError.noHabit(999)) { try await reports.report(habitID: 999, weeks: 0, now: now) }
        await #expect(throws: MorningProofError.self) {
            try await reports.report(habitID: read.habit.id, weeks: 0, now: now)
        }
        let charts = ChartService(database: database, clock: clock)
        _ = try await charts.chart(habitID: read.habit.id, weeks: 4, now: now)
        await #expect(throws: MorningProofError.self) { try await charts.chart(habitID: 999, weeks: 0, now: now) }
    }
}
