import Foundation
import TestFixtures
import Testing

/// End to end: each Health Auto Export fixture (Tests/Fixtures/health/auto-export) imported alone
/// by the built binary into a new database, then `metrics show --json`, against the day totals
/// worked out by hand from the file (zone America/New_York, all dates -0400).
@Suite("Health Auto Export files through metrics import")
struct HealthAutoExportImportTests {
    static let now = "2026-04-15T13:00:00-04:00"

    /// `metrics show --json` rows by day, after importing `name` alone.
    /// Several names are imported one after the other, as a phone sends them.
    func imported(_ names: String..., days: Int = 5) throws -> [String: [String: Double]] {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["config", "set", "timezone", "America/New_York"], now: Self.now)
        for name in names {
            let result = try cli.run(["metrics", "import", HealthFixtures.path("auto-export/\(name)")], now: Self.now)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(!result.stderr.contains("warning"), "\(name): \(result.stderr)")
        }
        let shown = try cli.run(["metrics", "show", "--days", "\(days)", "--json"], now: Self.now)
        let object = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        let rows = try #require(object?["days"] as? [[String: Any]])
        var byDay: [String: [String: Double]] = [:]
        for row in rows {
            guard let day = row["day"] as? String else { continue }
            let values = row.compactMapValues { ($0 as? NSNumber)?.doubleValue }
            if !values.isEmpty { byDay[day] = values }
        }
        return byDay
    }

    @Test("version 2 REST payload: steps of the larger source, energy, nights for their date, workouts v2")
    func versionTwo() throws {
        let days = try imported("v2-rest.json")
        // Watch 1520 + 3010 + 2470 = 7000 beats the phone's 2600; 120.5 + 200.5 kcal; 6.5 h; a 2490 s run.
        #expect(
            days["2026-04-13"] == [
                "steps": 7000, "activeEnergyKcal": 321, "sleepMinutes": 390, "workouts": 1, "workoutMinutes": 41.5,
            ])
        // 1234 + 2000 steps; 7.25 h; a 2700 s strength workout.
        #expect(
            days["2026-04-14"] == [
                "steps": 3234, "activeEnergyKcal": 80, "sleepMinutes": 435, "workouts": 1, "workoutMinutes": 45,
            ])
        #expect(days.count == 2)
    }

    @Test("sleep as stage intervals: the union of asleep stages per night, for its wake day")
    func sleepStages() throws {
        let days = try imported("sleep-stages.json")
        // 22:55-00:40, 00:40-01:30, 01:30-02:10, 02:25-04:55, 04:55-05:40, 05:50-06:20: 420 min.
        #expect(days["2026-04-14"] == ["sleepMinutes": 420])
        // Watch Core 23:20-00:10 and phone Asleep 23:50-06:10 overlap: 23:20 to 06:10 is 410 min.
        #expect(days["2026-04-15"] == ["sleepMinutes": 410])
        #expect(days.count == 2)
    }

    @Test("older version: day buckets without a source, kJ and miles, sleepSource, workouts v1")
    func olderVersion() throws {
        let days = try imported("v1-older.json")
        // 1046 kJ = 250 kcal; 2.5 mi = 4.02 km; 6.75 h asleep; Walking 08:02:43 to 08:21:13.
        #expect(
            days["2026-04-11"] == [
                "steps": 4210, "activeEnergyKcal": 250, "distanceKm": 4.02, "sleepMinutes": 405, "workouts": 1,
                "workoutMinutes": 18.5,
            ])
        // 1464.4 kJ = 350 kcal; a night only in bed is no sleep; Cycling of 2700 s.
        #expect(
            days["2026-04-12"] == ["steps": 6890, "activeEnergyKcal": 350, "workouts": 1, "workoutMinutes": 45])
        #expect(days.count == 2)
    }

    @Test("a resend at 09:00 and at 12:00: each file alone gives that moment's day")
    func resend() throws {
        let yesterday: [String: Double] = ["steps": 9876, "activeEnergyKcal": 512]
        let morning = try imported("resend-0900.json")
        #expect(morning["2026-04-13"] == yesterday)
        #expect(
            morning["2026-04-14"] == [
                "steps": 3200, "activeEnergyKcal": 150, "sleepMinutes": 420, "workouts": 1, "workoutMinutes": 30,
            ])
        let noon = try imported("resend-1200.json")
        #expect(noon["2026-04-13"] == yesterday)
        #expect(
            noon["2026-04-14"] == [
                "steps": 7450, "activeEnergyKcal": 290, "sleepMinutes": 420, "workouts": 1, "workoutMinutes": 30,
            ])
        // Both sends, in either order, give the later moment's totals, not their sum.
        #expect(try imported("resend-0900.json", "resend-1200.json") == noon)
        #expect(try imported("resend-1200.json", "resend-0900.json", "resend-1200.json") == noon)
    }
}
