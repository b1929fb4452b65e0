import Foundation
import MorningProofCore
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

@Suite struct AppDatabaseTests {
    func sampleHabit(_ name: String = "Make bed") -> Habit {
        Habit(name: name, createdDay: LocalDay("2026-03-01")!, createdAt: Date(timeIntervalSince1970: 1_772_000_000))
    }

    @Test func namesAreUniqueCaseInsensitively() async throws {
        let database = try AppDatabase.inMemory()
        _ = try await database.addHabit(sampleHabit())
        await #expect(throws: StoreError(.conflict, value: "MAKE BED", "a habit named \"Make bed\" already exists")) {
            try await database.addHabit(sampleHabit("MAKE BED"))
        }
    }

    @Test func findsHabitsByUniquePrefix() async throws {
        let database = try AppDatabase.inMemory()
        _ = try await database.addHabit(sampleHabit("Make bed"))
        _ = try await database.addHabit(sampleHabit("Meditate"))
        await #expect(try database.findHabit(named: "make").name == "Make bed")
        await #expect(throws: StoreError.self) { try await database.findHabit(named: "m") }
    }

    @Test func manualEntriesWinOverAutomaticOnes() async throws {
        let database = try AppDatabase.inMemory()
        let habit = try await database.addHabit(sampleHabit())
        let day = LocalDay("2026-03-02")!
        let at = Date(timeIntervalSince1970: 1_772_500_000)
        await #expect(
            try database.record(Entry(habitID: habit.id, day: day, status: .skipped, recordedAt: at, zone: "UTC"))
                == .recorded)
        await #expect(
            try database.record(
                Entry(habitID: habit.id, day: day, status: .done, source: .metric, recordedAt: at, zone: "UTC"))
                == .keptManual)
        await #expect(
            try database.record(Entry(habitID: habit.id, day: day, status: .done, recordedAt: at, zone: "UTC"))
                == .replaced(previous: .skipped))
        await #expect(
            try database.record(Entry(habitID: habit.id, day: day, status: .done, recordedAt: at, zone: "UTC"))
                == .unchanged)
        await #expect(try database.entries(habitID: habit.id).count == 1)
    }
}
