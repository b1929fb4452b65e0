import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite("Habit use cases")
struct HabitServiceTests {
    let database: AppDatabase
    let service: HabitService
    let now = ISOInstant.parse("2026-03-08T07:00:00-04:00")!

    init() throws {
        database = try AppDatabase.inMemory()
        service = HabitService(database: database, clock: DayClock(zoneIdentifier: "America/New_York")!)
    }

    @Test("a goal makes a metric habit; a metric habit without a goal, or a bad detail, is refused unstored")
    func add() async throws {
        let walk = try await service.add(named: "Walk", HabitDetails(metric: "steps", atLeast: "8000"), now: now)
        #expect(walk.kind == .metric && walk.goal?.target == 8_000 && walk.createdDay == LocalDay("2026-03-08"))
        await #expect(throws: MorningProofError.self) {
            try await service.add(named: "Sleep", HabitDetails(kind: .metric), now: now)
        }
        await #expect(throws: MorningProofError.self) {
            try await service.add(named: "Run", HabitDetails(times: 3, per: "fortnight"), now: now)
        }
        await #expect(throws: MorningProofError.self) {
            try await service.add(named: "Evil\u{1B}[31m", HabitDetails(), now: now)
        }
        await #expect(try database.habits().map(\.name) == ["Walk"])
    }

    @Test("edit keeps what is not given, renames, and turning a goal's metric drops an activity that no longer applies")
    func edit() async throws {
        _ = try await service.add(
            named: "Run", HabitDetails(metric: "workouts", atLeast: "1", activity: "running"), now: now)
        let edited = try await service.edit(
            named: "run", rename: "Morning run", HabitDetails(remindAt: "06:45"), now: now
        )
        .habit
        #expect(edited.name == "Morning run" && edited.remindAt == 405 && edited.goal?.activity == "running")
        let walking = try await service.edit(named: "morning", HabitDetails(metric: "steps", atLeast: "5000"), now: now)
            .habit
        #expect(walking.goal?.metric == "steps" && walking.goal?.activity == nil)
    }

    @Test("remove needs confirmation and says what would be lost; archive keeps the habit")
    func removeAndArchive() async throws {
        let read = try await service.add(named: "Read", HabitDetails(), now: now)
        _ = try await EntryService(database: database, clock: service.clock).record(
            .done, habit: read, day: nil, now: now)
        await #expect(
            throws: MorningProofError.usage(
                "removing \"Read\" would delete it and its 1 entry\(hint: .confirmRemoval(habit: "Read"))")
        ) {
            try await service.remove(named: "Read", confirmed: false)
        }
        await #expect(try service.archive(named: "Read", now: now).archived)
        await #expect(try database.habits().isEmpty)
        await #expect(try service.remove(named: "Read", confirmed: true).entries == 1)
    }
}
