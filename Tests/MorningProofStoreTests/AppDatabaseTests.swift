import Foundation
import MorningProofCore
import Testing

@testable import MorningProofStore

@Suite struct AppDatabaseTests {
    func sampleHabit(_ name: String = "Make bed") -> Habit {
        Habit(name: name, createdDay: LocalDay("2026-03-01")!, createdAt: Date(timeIntervalSince1970: 1_772_000_000))
    }

    @Test func namesAreUniqueCaseInsensitively() throws {
        let database = try AppDatabase.inMemory()
        _ = try database.addHabit(sampleHabit())
        #expect(throws: StoreError(.conflict, value: "MAKE BED", "a habit named \"Make bed\" already exists")) {
            try database.addHabit(sampleHabit("MAKE BED"))
        }
    }

    @Test func findsHabitsByUniquePrefix() throws {
        let database = try AppDatabase.inMemory()
        _ = try database.addHabit(sampleHabit("Make bed"))
        _ = try database.addHabit(sampleHabit("Meditate"))
        #expect(try database.findHabit(named: "make").name == "Make bed")
        #expect(throws: StoreError.self) { try database.findHabit(named: "m") }
    }

    @Test func manualEntriesWinOverAutomaticOnes() throws {
        let database = try AppDatabase.inMemory()
        let habit = try database.addHabit(sampleHabit())
        let day = LocalDay("2026-03-02")!
        let at = Date(timeIntervalSince1970: 1_772_500_000)
        #expect(
            try database.record(Entry(habitID: habit.id, day: day, status: .skipped, recordedAt: at, zone: "UTC"))
                == .recorded)
        #expect(
            try database.record(
                Entry(habitID: habit.id, day: day, status: .done, source: .metric, recordedAt: at, zone: "UTC"))
                == .keptManual)
        #expect(
            try database.record(Entry(habitID: habit.id, day: day, status: .done, recordedAt: at, zone: "UTC"))
                == .replaced(previous: .skipped))
        #expect(
            try database.record(Entry(habitID: habit.id, day: day, status: .done, recordedAt: at, zone: "UTC"))
                == .unchanged)
        #expect(try database.entries(habitID: habit.id).count == 1)
    }
}
