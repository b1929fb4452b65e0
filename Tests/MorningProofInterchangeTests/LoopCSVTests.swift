import Foundation
import MorningProofCore
import Testing

@testable import MorningProofInterchange

@Suite struct LoopCSVTests {
    @Test func recordsWithQuotesCommasAndLineBreaks() {
        let text = "Date,Value,Notes\r\n2026-03-02,YES_MANUAL,\"Long sit, 40 min\nfelt \"\"calm\"\"\"\n\n2026-03-01,NO,\n"
        let records = CSVRecords.parse(text)
        #expect(records.map(\.line) == [1, 2, 5])
        #expect(records[1].fields == ["2026-03-02", "YES_MANUAL", "Long sit, 40 min\nfelt \"calm\""])
        #expect(records[2].fields == ["2026-03-01", "NO", ""])
        #expect(CSVRecords.field("a,b") == "\"a,b\"")
        #expect(CSVRecords.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVRecords.field("plain") == "plain")
    }

    @Test func anExportBecomesABackup() throws {
        let habits = """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,Meditate,YES_NO,Did you meditate?,,1,1,#FF8F00,,,,false
            002,Walk,NUMERICAL,How many steps?,,1,1,#00897B,steps,AT_LEAST,8000.0,true
            """
        let checkmarks = "Date,Value,Notes\n2026-03-02,YES_MANUAL,\n2026-03-01,SKIP,away\n2026-02-28,YES_AUTO,\n"
        let backup = try LoopCSV.backup(
            files: [
                "Habits.csv": Data(habits.utf8), "001 Meditate/Checkmarks.csv": Data(checkmarks.utf8),
                "002 Walk/Checkmarks.csv": Data("Date,Value,Notes\n2026-03-02,9000000,\n".utf8),
                "003 Gone/Checkmarks.csv": Data("Date,Value\n".utf8), "Scores.csv": Data("Date,Meditate,\n".utf8),
            ], label: "export.zip")
        #expect(backup.habits.map(\.name) == ["Meditate", "Walk"])
        #expect(backup.habits[1].type == 1 && backup.habits[1].targetValue == 8000 && backup.habits[1].archived)
        #expect(backup.habits[0].question == "Did you meditate?")
        #expect(backup.repetitions.filter { $0.habitID == 1 }.map(\.value) == [2, 3, 1])
        #expect(backup.repetitions.filter { $0.habitID == 2 }.map(\.value) == [9_000_000])
        #expect(backup.repetitions[1].notes == "away")
        #expect(backup.repetitions[1].origin == .init(file: "export.zip/001 Meditate/Checkmarks.csv", place: .line(3)))
        #expect(backup.warnings.map(\.description) == ["export.zip/003 Gone/Checkmarks.csv:1: no habit at position 3 in Habits.csv"])
    }

    @Test func withoutItsHabitsFileItIsNotAnExport() {
        #expect(throws: MorningProofError.dataError("x.zip: no Habits.csv (not a Loop Habit Tracker CSV export)")) {
            try LoopCSV.backup(files: [:], label: "x.zip")
        }
        #expect(throws: MorningProofError.self) {
            try LoopCSV.backup(files: ["Habits.csv": Data("a,b\n1,2\n".utf8)], label: "x.zip")
        }
    }
}
