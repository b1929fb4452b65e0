import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore
@testable import MorningProofService
import MorningProofStoreContract
@testable import MorningProofSQLite

@Suite("Daily totals")
struct DailyTotalsTests {
    func imported(_ names: String..., clock: DayClock = HealthFixtures.clock) async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        let importer = MetricImporter(database: database, clock: clock)
        for name in names { _ = try await importer.importFile(HealthFixtures.path(name)) }
        return database
    }

    func value(_ database: AppDatabase, _ metric: HealthMetric, _ day: String, activity: String? = nil) async throws
        -> Double?
    {
        try await database.metricValue(metric: metric.rawValue, day: HealthFixtures.day(day), activity: activity)
    }

    @Test("two sources counting the same steps: the larger sum wins, not the total")
    func largestSourceWins() async throws {
        let database = try await imported("export.xml")
        await #expect(try value(database, .steps, "2026-03-07") == 6500)  // watch 6500, phone 5000
        await #expect(try value(database, .steps, "2026-03-06") == nil)
        let distance = try await #require(try value(database, .distance, "2026-03-07"))
        #expect(abs(distance - 2.5 * 1.609344) < 1e-9)  // watch 4.02 km beats phone 3.9 km
    }

    @Test("metrics.source-priority: the first listed source with data wins")
    func priorityWins() async throws {
        let database = try await imported("export.xml")
        try await database.setSetting(SettingKey.metricSourcePriority, to: "iPhone,Watch")
        await #expect(try value(database, .steps, "2026-03-07") == 5000)
        await #expect(try value(database, .distance, "2026-03-07") == 3.9)
        // The phone has no energy: the next listed source gives it.
        await #expect(abs(try #require(try value(database, .activeEnergy, "2026-03-07")) - 400) < 1e-9)
        try await database.setSetting(SettingKey.metricSourcePriority, to: "Watch")
        await #expect(try value(database, .steps, "2026-03-07") == 6500)
    }

    @Test("sleep counts for the wake day: the union of asleep intervals across sources, InBed and Awake left out")
    func sleepUnionOnWakeDay() async throws {
        let database = try await imported("export.xml")
        // Phone 23:00-03:35 and watch stages 23:10-03:30 overlap: 23:00-03:35, then the watch's 03:40-06:20.
        await #expect(try value(database, .sleep, "2026-03-06") == 275 + 160)
        await #expect(try value(database, .sleep, "2026-03-05") == nil)
    }

    @Test("the spring-forward day: 23 hours, and samples keep to the local day of their start")
    func dstDay() async throws {
        let database = try await imported("export.xml", "intervals.csv")
        // 00:30 EST and 23:30 EDT both start on March 8; 00:10 EDT on the 9th starts the next day.
        await #expect(try value(database, .steps, "2026-03-08") == 900)  // Ring 900 beats the phone's 300
        await #expect(try value(database, .steps, "2026-03-09") == 50)
        // 22:30 EST to 06:00 EDT is 6.5 hours, not 7.5: it counts for the 8th.
        await #expect(try value(database, .sleep, "2026-03-08") == 390)
    }

    @Test("the day start is honoured: at 04:00, a step at 00:30 belongs to the day before")
    func dayStartHonoured() async throws {
        let clock = DayClock(timeZone: HealthFixtures.clock.timeZone, dayStart: 240)
        let database = try await imported("export.xml", clock: clock)
        try await database.setSetting(SettingKey.metricSourcePriority, to: "iPhone")
        await #expect(try value(database, .steps, "2026-03-07") == 5100)  // phone 5000 + 100 at 00:30 on the 8th
        await #expect(try value(database, .steps, "2026-03-08") == 250)  // 23:30 and 00:10 on the 9th
    }

    @Test("workouts: count and minutes on the start day, filtered by activity")
    func workouts() async throws {
        let database = try await imported("export.xml", "health-auto-export.json")
        // The watch's run and Health Auto Export's "Outdoor Run" are the same workout.
        await #expect(try value(database, .workouts, "2026-03-07") == 1)
        await #expect(abs(try #require(try value(database, .workoutMinutes, "2026-03-07")) - 34.2) < 1e-9)
        await #expect(try value(database, .workouts, "2026-03-07", activity: "running") == 1)
        await #expect(try value(database, .workouts, "2026-03-07", activity: "yoga") == nil)
        await #expect(try value(database, .workouts, "2026-03-08", activity: "yoga") == 1)
    }

    @Test("reading the same files again, or an overlapping copy, counts nothing twice")
    func reimportCountsOnce() async throws {
        let database = try await imported("export.xml", "metrics.csv", "metrics.jsonl", "health-auto-export.json")
        let before = try await database.metricDays(from: HealthFixtures.day("2026-03-01"), to: HealthFixtures.day("2026-03-10"))
        let importer = MetricImporter(database: database, clock: HealthFixtures.clock)
        for name in ["export.xml", "export.zip", "metrics.csv", "metrics.jsonl", "health-auto-export.json"] {
            let report = try await importer.importFile(HealthFixtures.path(name))
            #expect(report.duplicatesSkipped == report.recordsRead, "\(name)")
            #expect(report.daysTouched.isEmpty, "\(name)")
        }
        let after = try await database.metricDays(from: HealthFixtures.day("2026-03-01"), to: HealthFixtures.day("2026-03-10"))
        #expect(before == after)
        #expect(after[HealthFixtures.day("2026-03-07")]?["steps"] == 6500)
    }

    @Test("a newer export replaces an older one's day totals; an older one never replaces a newer")
    func newerExportReplaces() async throws {
        let folder = try HealthFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try String(contentsOfFile: HealthFixtures.path("export.xml"), encoding: .utf8)
        // The newer export saw 500 more iPhone steps on the 7th (synced late).
        let newer = original.replacingOccurrences(of: "value=\"2000\"", with: "value=\"2500\"")
            .replacingOccurrences(of: "2026-03-10 08:00:00 -0400", with: "2026-03-11 08:00:00 -0400")
        let newerPath = folder.appendingPathComponent("newer.xml").path
        try newer.write(toFile: newerPath, atomically: true, encoding: .utf8)
        try await database(priority: "iPhone") { database, importer in
            _ = try await importer.importFile(HealthFixtures.path("export.xml"))
            await #expect(try value(database, .steps, "2026-03-07") == 5000)
            _ = try await importer.importFile(newerPath)
            await #expect(try value(database, .steps, "2026-03-07") == 5500)
            _ = try await importer.importFile(HealthFixtures.path("export.xml"))  // the older export again
            await #expect(try value(database, .steps, "2026-03-07") == 5500)
        }
    }

    private func database(priority: String, _ body: (AppDatabase, MetricImporter) async throws -> Void) async throws {
        let database = try AppDatabase.inMemory()
        try await database.setSetting(SettingKey.metricSourcePriority, to: priority)
        try await body(database, MetricImporter(database: database, clock: HealthFixtures.clock))
    }
}
