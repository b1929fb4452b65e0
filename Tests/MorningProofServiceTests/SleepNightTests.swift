import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore
@testable import MorningProofService
import MorningProofStoreContract
@testable import MorningProofSQLite

/// A night belongs to its wake day, whole: the union of asleep intervals, split on gaps of 4 hours
/// or more, counts for the day of its last asleep instant.
@Suite("Sleep nights")
struct SleepNightTests {
    let folder: URL

    init() throws { folder = try HealthFixtures.temporaryFolder() }

    /// One JSON Lines asleep interval, without a value: the interval is the value.
    func line(_ start: String, _ end: String, source: String = "Watch", stage: String = "core") -> String {
        #"{"metric": "sleep", "stage": "\#(stage)", "start": "\#(start)", "end": "\#(end)", "source": "\#(source)"}"#
            + "\n"
    }

    func write(_ name: String, _ lines: [String]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try lines.joined().write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func imported(_ lines: [String], clock: DayClock = HealthFixtures.clock) async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        let report = try await MetricImporter(database: database, clock: clock).importFile(
            write("night-\(UUID().uuidString).jsonl", lines))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        return database
    }

    func sleep(_ database: AppDatabase, _ day: String) async throws -> Double? {
        try await database.metricValue(metric: "sleep", day: HealthFixtures.day(day))
    }

    /// 22:40 to 06:40 in four stages, the first two ending before midnight.
    var crossMidnight: [String] {
        [
            line("2026-01-14T22:40:00-05:00", "2026-01-14T23:20:00-05:00"),
            line("2026-01-14T23:20:00-05:00", "2026-01-14T23:50:00-05:00", stage: "deep"),
            line("2026-01-14T23:50:00-05:00", "2026-01-15T03:00:00-05:00", stage: "rem"),
            line("2026-01-15T03:00:00-05:00", "2026-01-15T06:40:00-05:00"),
        ]
    }

    @Test("a night across midnight counts whole for the wake day, nothing for the evening's date")
    func crossMidnightNight() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await imported(crossMidnight)
        await #expect(try sleep(database, "2026-01-15") == 480)
        await #expect(try sleep(database, "2026-01-14") == nil)
        let days = try await database.metricDays(from: HealthFixtures.day("2026-01-14"), to: HealthFixtures.day("2026-01-15"))
        #expect(days[HealthFixtures.day("2026-01-15")]?["sleep"] == 480)
        #expect(days[HealthFixtures.day("2026-01-14")]?["sleep"] == nil)
    }

    @Test("two sources overlapping count their union, not their sum")
    func overlappingSources() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await imported([
            line("2026-01-14T23:00:00-05:00", "2026-01-15T07:00:00-05:00", source: "Watch"),
            line("2026-01-14T22:30:00-05:00", "2026-01-15T06:00:00-05:00", source: "Phone", stage: "asleep"),
        ])
        await #expect(try sleep(database, "2026-01-15") == 510)  // 22:30 to 07:00
        await #expect(try sleep(database, "2026-01-14") == nil)
    }

    @Test("a watched file growing overnight, or a night in two files, totals as the night read whole")
    func nightInTwoPasses() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try await imported(crossMidnight)

        // A watched JSON Lines file: the evening's stages first, the rest appended in the morning.
        let database = try AppDatabase.inMemory()
        let scanner = SourceScanner(database: database, clock: HealthFixtures.clock)
        let path = try write("growing.jsonl", Array(crossMidnight.prefix(2)))
        try await database.addMetricSource(path)
        _ = try await scanner.scanChangedSources()
        await #expect(try sleep(database, "2026-01-14") == 70)  // so far, a night that ended at 23:50
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        handle.write(Data(crossMidnight.dropFirst(2).joined().utf8))
        try handle.close()
        let second = try await scanner.scanChangedSources()
        #expect(second.recordsRead == 2)
        await #expect(try sleep(database, "2026-01-14") == nil)
        await #expect(try sleep(database, "2026-01-15") == 480)

        // Two files, each half a night, in either order.
        let split = try AppDatabase.inMemory()
        let importer = MetricImporter(database: split, clock: HealthFixtures.clock)
        _ = try await importer.importFile(try write("morning.jsonl", Array(crossMidnight.dropFirst(2))))
        _ = try await importer.importFile(try write("evening.jsonl", Array(crossMidnight.prefix(2))))
        let range = (HealthFixtures.day("2026-01-13"), HealthFixtures.day("2026-01-16"))
        let expected = try await whole.metricDays(from: range.0, to: range.1)
        await #expect(try database.metricDays(from: range.0, to: range.1) == expected)
        await #expect(try split.metricDays(from: range.0, to: range.1) == expected)
    }

    @Test("a spring-forward night counts the hours that passed: 23:00 EST to 07:00 EDT is 7 hours")
    func springForwardNight() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await imported([
            line("2026-03-07T23:00:00-05:00", "2026-03-07T23:45:00-05:00"),
            line("2026-03-07T23:45:00-05:00", "2026-03-08T03:30:00-04:00", stage: "deep"),
            line("2026-03-08T03:30:00-04:00", "2026-03-08T07:00:00-04:00"),
        ])
        await #expect(try sleep(database, "2026-03-08") == 420)
        await #expect(try sleep(database, "2026-03-07") == nil)
    }

    @Test("with a 04:00 day start, a night ending at 03:30 counts for the date before")
    func dayStartAtFour() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = DayClock(timeZone: HealthFixtures.clock.timeZone, dayStart: 240)
        let database = try await imported(
            [
                line("2026-01-14T22:00:00-05:00", "2026-01-15T01:00:00-05:00"),
                line("2026-01-15T01:00:00-05:00", "2026-01-15T03:30:00-05:00"),
                // The next night ends at 06:00, after the day start: the 16th.
                line("2026-01-15T23:00:00-05:00", "2026-01-16T06:00:00-05:00"),
            ], clock: clock)
        await #expect(try sleep(database, "2026-01-14") == 330)
        await #expect(try sleep(database, "2026-01-15") == nil)
        await #expect(try sleep(database, "2026-01-16") == 420)
    }

    @Test("a nap after noon counts for its own day, apart from the night before and the one after")
    func afternoonNap() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await imported([
            line("2026-01-14T23:00:00-05:00", "2026-01-15T07:00:00-05:00"),
            line("2026-01-15T14:00:00-05:00", "2026-01-15T14:40:00-05:00", source: "Phone", stage: "asleep"),
            line("2026-01-15T22:00:00-05:00", "2026-01-16T06:00:00-05:00"),
        ])
        await #expect(try sleep(database, "2026-01-15") == 480 + 40)
        await #expect(try sleep(database, "2026-01-16") == 480)
        await #expect(try sleep(database, "2026-01-14") == nil)
    }

    @Test("a sleep interval needs no value in CSV or JSON Lines; a night total without one is refused")
    func sleepWithoutValue() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.inMemory()
        let importer = MetricImporter(database: database, clock: HealthFixtures.clock)
        let csv = try write(
            "nights.csv",
            [
                "start,end,metric,source\n",
                "2026-01-14T23:00:00-05:00,2026-01-15T06:00:00-05:00,sleep,Ring\n",
            ])
        await #expect(try importer.importFile(csv).warnings.isEmpty)
        let withValues = try write(
            "values.csv",
            [
                "start,end,metric,value,source\n",
                "2026-01-15T23:00:00-05:00,2026-01-16T06:00:00-05:00,sleep,,Ring\n",
                "2026-01-16,,sleep,,Ring\n",
            ])
        let report = try await importer.importFile(withValues)
        #expect(report.recordsRead == 1)
        #expect(report.warnings.map(\.location) == ["line 3"])
        await #expect(try sleep(database, "2026-01-15") == 420)
        await #expect(try sleep(database, "2026-01-16") == 420)
    }
}
