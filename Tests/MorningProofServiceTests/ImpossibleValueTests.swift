import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore
@testable import MorningProofService
import MorningProofStoreContract
@testable import MorningProofSQLite

/// Values no person can reach are refused with a warning naming the file and the line (or byte),
/// in every reader, and a source's day total above the ceiling never counts.
@Suite("Impossible metric values")
struct ImpossibleValueTests {
    let folder: URL
    let database: AppDatabase
    let importer: MetricImporter

    init() throws {
        folder = try HealthFixtures.temporaryFolder()
        database = try AppDatabase.inMemory()
        importer = MetricImporter(database: database, clock: HealthFixtures.clock)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func value(_ metric: HealthMetric, _ day: String = "2026-01-15") async throws -> Double? {
        try await database.metricValue(metric: metric.rawValue, day: HealthFixtures.day(day))
    }

    /// The warnings' locations, each checked to name the file.
    func locations(_ report: FileReport, _ path: String) -> [String] {
        for warning in report.warnings { #expect(warning.file == path && warning.description.hasPrefix(path)) }
        return report.warnings.map(\.location)
    }

    @Test("CSV: negative, 1e308 steps, a day and more of sleep or mindful minutes, a 30-hour interval")
    func csv() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write(
            "bad.csv",
            """
            start,end,metric,value,unit,source
            2026-01-15T09:00:00-05:00,,steps,-500,,Phone
            2026-01-15T09:05:00-05:00,,steps,1e308,,Phone
            2026-01-15,,sleep,99999,min,Phone
            2026-01-15T10:00:00-05:00,,mindful,99999,min,Phone
            2026-01-15T11:00:00-05:00,,steps,1200,,Phone
            2026-01-14T01:00:00-05:00,2026-01-15T07:00:00-05:00,sleep,,,Phone
            2026-01-15T12:00:00-05:00,,distance,2000,km,Phone
            2026-01-15T12:00:00-05:00,,activeEnergy,-3,kcal,Phone

            """)
        let report = try await importer.importFile(path)
        #expect(locations(report, path) == ["line 2", "line 3", "line 4", "line 5", "line 7", "line 8", "line 9"])
        #expect(report.warnings[0].message.contains("negative"))
        #expect(report.warnings[1].message.contains("ceiling of 200000"))
        #expect(report.warnings[4].message.contains("longer than a day"))
        #expect(report.recordsRead == 1)
        await #expect(try value(.steps) == 1200)
        await #expect(try value(.sleep) == nil)
        await #expect(try value(.mindfulMinutes) == nil)
        await #expect(try value(.distance) == nil)
        await #expect(try value(.activeEnergy) == nil)
    }

    @Test("JSON Lines: a negative and an over-ceiling value, and an over-long workout")
    func jsonLines() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write(
            "bad.jsonl",
            """
            {"metric": "steps", "value": -500, "start": "2026-01-15T09:00:00-05:00", "source": "Band"}
            {"metric": "steps", "value": 250000, "start": "2026-01-15T09:10:00-05:00", "source": "Band"}
            {"metric": "exercise", "value": 25, "unit": "h", "start": "2026-01-15T09:20:00-05:00", "source": "Band"}
            {"metric": "workout", "value": 1500, "start": "2026-01-15T10:00:00-05:00", "activity": "run", "source": "Band"}
            {"metric": "steps", "value": 700, "start": "2026-01-15T11:00:00-05:00", "source": "Band"}

            """)
        let report = try await importer.importFile(path)
        #expect(locations(report, path) == ["line 1", "line 2", "line 3", "line 4"])
        await #expect(try value(.steps) == 700)
        await #expect(try value(.exerciseMinutes) == nil)
        await #expect(try value(.workouts) == nil)
    }

    @Test("Health Auto Export JSON: negative and over-ceiling quantities, nights and workouts")
    func healthAutoExport() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write(
            "hae.json",
            """
            {"data": {"metrics": [
              {"name": "step_count", "units": "count", "data": [
                {"date": "2026-01-15 09:00:00 -0500", "qty": -500, "source": "Phone"},
                {"date": "2026-01-15 09:10:00 -0500", "qty": 300000, "source": "Phone"},
                {"date": "2026-01-15 09:20:00 -0500", "qty": 900, "source": "Phone"}]},
              {"name": "sleep_analysis", "units": "hr", "data": [
                {"date": "2026-01-15", "totalSleep": 30, "source": "Watch"},
                {"date": "2026-01-16", "totalSleep": -7, "source": "Watch"}]}],
             "workouts": [
              {"name": "Run", "start": "2026-01-15 10:00:00 -0500", "duration": 100000},
              {"name": "Run", "start": "2026-01-15 12:00:00 -0500", "duration": -60}]}}
            """)
        let report = try await importer.importFile(path)
        #expect(
            locations(report, path) == [
                "metrics[0] step_count data[0]", "metrics[0] step_count data[1]", "metrics[1] sleep_analysis data[0]",
                "metrics[1] sleep_analysis data[1]", "workouts[0]", "workouts[1]",
            ])
        #expect(report.warnings.allSatisfy { $0.message.contains("negative") || $0.message.contains("ceiling") })
        await #expect(try value(.steps) == 900)
        await #expect(try value(.sleep) == nil)
        await #expect(try value(.sleep, "2026-01-16") == nil)
        await #expect(try value(.workouts) == nil)
    }

    @Test("Apple Health export.xml: refused records are warnings at their byte, the rest is read")
    func appleHealthExport() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        func record(_ type: String, _ value: String, _ start: String, _ end: String, unit: String = "count") async -> String {
            #"<Record type="\#(type)" sourceName="Watch" unit="\#(unit)" startDate="\#(start)" endDate="\#(end)" value="\#(value)"/>"#
        }
        let steps = "HKQuantityTypeIdentifierStepCount"
        let records = await [
            record(steps, "-500", "2026-01-15 09:00:00 -0500", "2026-01-15 09:05:00 -0500"),
            record(steps, "250000", "2026-01-15 09:10:00 -0500", "2026-01-15 09:15:00 -0500"),
            record(steps, "800", "2026-01-15 09:20:00 -0500", "2026-01-15 09:25:00 -0500"),
            record(
                "HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepCore",
                "2026-01-14 01:00:00 -0500", "2026-01-15 07:00:00 -0500", unit: ""),
            #"<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="2000" durationUnit="min" sourceName="Watch" startDate="2026-01-15 10:00:00 -0500" endDate="2026-01-15 11:00:00 -0500"/>"#,
            #"<ActivitySummary dateComponents="2026-01-15" activeEnergyBurned="50000" activeEnergyBurnedUnit="Cal" appleExerciseTime="-5"/>"#,
        ]
        let head = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<HealthData locale=\"en_US\">\n"
        let text = head + records.joined(separator: "\n") + "\n</HealthData>\n"
        let path = try write("export.xml", text)
        let report = try await importer.importFile(path)
        var expected: [String] = []
        for (index, line) in records.enumerated() where index != 2 {
            let offset = text.utf8.count - text[text.range(of: line)!.lowerBound...].utf8.count
            expected.append("byte \(offset)")
            if index == 5 { expected.append("byte \(offset)") }  // energy and exercise
        }
        #expect(locations(report, path) == expected)
        await #expect(try value(.steps) == 800)
        await #expect(try value(.sleep) == nil)
        await #expect(try value(.workouts) == nil)
        await #expect(try value(.activeEnergy) == nil)
        await #expect(try value(.exerciseMinutes) == nil)
    }

    @Test("a source's day above the ceiling, from plausible records, does not count and is a warning")
    func dayTotalAboveCeiling() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try write(
            "day.csv",
            """
            start,metric,value,source
            2026-01-15T09:00:00-05:00,steps,150000,Glitchy
            2026-01-15T10:00:00-05:00,steps,150000,Glitchy
            2026-01-15T11:00:00-05:00,steps,9000,Phone
            2026-01-16T11:00:00-05:00,steps,150000,Glitchy

            """)
        let report = try await importer.importFile(path)
        #expect(report.warnings.map(\.location) == ["day 2026-01-15"])
        #expect(report.warnings.first?.message.contains("Glitchy") == true)
        await #expect(try value(.steps) == 9000)  // not 300,000
        await #expect(try value(.steps, "2026-01-16") == 150000)
        let days = try await database.metricDays(from: HealthFixtures.day("2026-01-15"), to: HealthFixtures.day("2026-01-15"))
        #expect(days[HealthFixtures.day("2026-01-15")]?["steps"] == 9000)
        try await database.setSetting(SettingKey.metricSourcePriority, to: "Glitchy")
        await #expect(try value(.steps) == 9000)  // the preferred source's impossible day is passed over
    }
}
