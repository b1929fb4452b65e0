import Foundation
import MorningProofCore
import Testing

@testable import MorningProofInterchange

/// Numbers from files that do not fit: a warning with the file and place, never a crash or a store.
@Suite struct ImportedNumberTests {
    let context = ImportContext(
        now: Date(timeIntervalSince1970: 1_773_000_000), clock: DayClock(zoneIdentifier: "UTC")!)

    @Test func harshFrequenciesThatOverflowAreRefused() {
        #expect(HarshRules.frequency("2000000000000000000w") == nil)
        #expect(HarshRules.frequency("1/2000000000000000000w") == nil)
        #expect(HarshRules.frequency("2w") ?? (0, 0) == (1, 14))
        let batch = HarshImport.batch(
            habits: "Run: 2000000000000000000w\nRead: 1\n", log: "", habitsFile: "habits", logFile: "log",
            context: context)
        #expect(batch.habits.map(\.name) == ["Read"])
        #expect(batch.warnings.map(\.description).contains { $0.hasPrefix("habits:1: \"Run\": frequency") })
    }

    @Test func harshDaysOutsideTheSupportedYearsAreLeftOut() {
        let batch = HarshImport.batch(
            habits: "Run: 1\n", log: "0001-01-01 : Run : y\n2026-03-01 : Run : y\n", habitsFile: "habits",
            logFile: "log", context: context)
        #expect(batch.habits.first?.entries.map(\.day) == [LocalDay("2026-03-01")!])
        #expect(batch.warnings.map(\.description).contains { $0.hasPrefix("log:1: bad date") })
    }

    @Test(arguments: [1e19, -5, 200_001])
    func loopStepTargetsOutOfRangeLeaveTheHabitOut(target: Double) {
        let origin = ImportWarning.Origin(file: "loop.db", place: .path("Habits id 1"))
        let backup = LoopBackup(
            habits: [
                .init(
                    id: 1, name: "S", numerator: 1, denominator: 1, type: 1, targetType: 0, targetValue: target,
                    unit: "steps", origin: origin),
                .init(id: 2, name: "Read", numerator: 1, denominator: 1, origin: origin),
            ],
            repetitions: [
                .init(habitID: 1, timestamp: 1_772_928_000_000, value: 9_000_000, origin: origin),
                .init(habitID: 2, timestamp: Int64.max, value: 2, origin: origin),
            ])
        let batch = LoopImport.batch(backup, context: context)
        #expect(batch.habits.map(\.name) == ["Read"])
        #expect(batch.habits.first?.entries.isEmpty == true)
        #expect(batch.warnings.contains { $0.message.contains("\"S\": target") && $0.message.contains("out of range") })
    }

    @Test func jsonGoalsAndDaysOutOfRangeLeaveTheHabitOut() throws {
        func document(target: String, createdDay: String = "2026-03-01") -> Data {
            Data(
                """
                {"format": "morningproof-export", "version": 1, "habits": [
                  {"name": "S", "kind": "metric", "schedule": "daily", "required": false, "archived": false,
                   "goal": {"metric": "steps", "comparison": "atLeast", "target": \(target)},
                   "createdDay": "\(createdDay)", "createdAt": "2026-03-01T08:00:00Z", "entries": []}]}
                """.utf8)
        }
        #expect(try ExportDocument.read(document(target: "8000"), file: "x.json").habits.count == 1)
        for data in [document(target: "9999999999999999999"), document(target: "-1"),
            document(target: "8000", createdDay: "0001-01-01")]
        {
            let batch = try ExportDocument.read(data, file: "x.json")
            #expect(batch.habits.isEmpty)
            #expect(batch.warnings.first?.description.hasPrefix("x.json (habits[0]): ") == true)
        }
        // A schedule no option could give is a bad file, as any unknown schedule is.
        let every0 = String(decoding: document(target: "8000"), as: UTF8.self)
            .replacingOccurrences(of: "\"daily\"", with: "\"every:0\"")
        #expect(throws: MorningProofError.self) { try ExportDocument.read(Data(every0.utf8), file: "x.json") }
    }
}
