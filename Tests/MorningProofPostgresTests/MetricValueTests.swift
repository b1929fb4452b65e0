import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import TestFixtures
import Testing

/// A metric habit's value on PostgreSQL after `db copy`: the owner's metric rows read as SQLite
/// reads them, day for day.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct MetricValueTests {
    @Test func everyKindOfMetricReadsTheSameOnBothEngines() async throws {
        let path = try Self.temporaryDatabasePath()
        let sqlite = try AppDatabase.open(path: path)
        try await sqlite.setSetting(SettingKey.timeZone, to: "Europe/Istanbul")
        try await Self.storeOwnerMetrics(sqlite)
        let ada = try #require(
            try await sqlite.createAccount(
                email: "ada@example.com", passwordHash: "h", timeZone: "UTC", at: Fixture.noon))
        try await Self.withCopy(of: sqlite, from: path) { postgres in
            let days =
                ["2026-04-30", "2026-05-01", "2026-05-02", "2026-05-03", "2026-05-04", "2026-05-05"]
                + ["2026-05-13", "2026-05-16"]
            let onSQLite = try await Self.values(sqlite, on: days)
            #expect(onSQLite == Self.ownerValues)
            await #expect(try Self.values(postgres, on: days) == onSQLite)
            // Another account has no metrics, and never reads the owner's.
            await #expect(try Self.values(sqlite.scoped(to: ada.id), on: days).isEmpty)
            await #expect(try Self.values(postgres.scoped(to: ada.id), on: days).isEmpty)
            for store in [sqlite, postgres, sqlite.scoped(to: ada.id), postgres.scoped(to: ada.id)] as [any AccountData]
            {
                let error = await #expect(throws: StoreError.self) {
                    try await store.metricValue(metric: "mana", day: LocalDay("2026-05-01")!, activity: nil)
                }
                #expect(error?.code == .notFound)
            }
        }
    }

    @Test func theFilesTheCLIImportedReadTheSameOnBothEngines() async throws {
        let path = try Self.temporaryDatabasePath()
        let fixtures = HealthFixtures.folder
        let files = ["export.xml", "intervals.csv", "health-auto-export.json", "metrics.csv", "metrics.jsonl"]
        for arguments in [
            ["config", "set", "timezone", "America/New_York"], ["config", "set", "metrics.source-priority", "iPhone"],
            ["metrics", "import"] + files.map { fixtures.appendingPathComponent($0).path },
        ] {
            let result = try DatabaseCopyTests.run(
                "morningproof", arguments + ["--db", path, "--now", "2026-03-11T12:00:00Z"])
            #expect(result.status == 0, "morningproof \(arguments): \(result.stderr)")
        }
        let sqlite = try AppDatabase.open(path: path)
        try await Self.withCopy(of: sqlite, from: path) { postgres in
            let days = (0..<14).map { LocalDay("2026-02-28")!.adding(days: $0).description }
            let onSQLite = try await Self.values(sqlite, on: days)
            #expect(onSQLite.count >= 10, "the fixtures give values: \(onSQLite)")
            await #expect(try Self.values(postgres, on: days) == onSQLite)
        }
    }

    /// Workouts are read with each of these activities too.
    static let activities: [String?] = [nil, "running", "yoga", "walking", "cycling"]

    /// Every metric's value on each of `days` (workouts with each of `activities`), keyed
    /// `metric day [activity]`; a metric with no value on a day is left out. `step_count` is steps
    /// by a name a person types.
    static func values(_ store: some AccountData, on days: [String]) async throws -> [String: Double] {
        var values: [String: Double] = [:]
        for name in HealthMetric.allCases.map(\.rawValue) + ["step_count"] {
            for day in days {
                for activity in name.hasPrefix("workout") ? activities : [nil] {
                    let key = ([name, day] + [activity].compactMap { $0 }).joined(separator: " ")
                    values[key] = try await store.metricValue(metric: name, day: LocalDay(day)!, activity: activity)
                }
            }
        }
        return values
    }

    static func temporaryDatabasePath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp-metrics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("cli.sqlite").path
    }

    /// `body` with a PostgreSQL store that `db copy` filled from `sqlite`.
    static func withCopy(of sqlite: AppDatabase, from path: String, _ body: (PostgresStore) async throws -> Void)
        async throws
    {
        let dump = try sqlite.dump()
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 2)
            try await store.whileRunning {
                let counts = try await store.copy(dump, from: path)
                for table in ["metricDaily", "metricInterval"] {
                    #expect((counts.first { $0.table == table }?.copied ?? 0) > 0, "\(table) copied no rows")
                }
                try await body(store)
            }
        }
    }
}

/// The owner's metrics of every kind, stored as the importer stores them, in Istanbul.
extension MetricValueTests {
    static let clock = DayClock(zoneIdentifier: "Europe/Istanbul")!
    static let watch = "Ada's Apple Watch", phone = "Ada's iPhone", export = "Health Auto Export", ring = "Oura Ring"

    /// What `values` gives for the owner on the days of `storeOwnerMetrics`, by the rules.
    static let ownerValues: [String: Double] = [
        "steps 2026-05-01": 5_000, "steps 2026-05-02": 4_000, "steps 2026-05-03": 1_234,
        "step_count 2026-05-01": 5_000, "step_count 2026-05-02": 4_000, "step_count 2026-05-03": 1_234,
        "distance 2026-05-01": 3.14159, "activeEnergy 2026-05-01": 412.5,
        "sleep 2026-05-01": 435, "sleep 2026-05-02": 420, "sleep 2026-05-16": 510,
        "workouts 2026-05-01": 2, "workoutMinutes 2026-05-01": 81,
        "workouts 2026-05-01 running": 1, "workoutMinutes 2026-05-01 running": 36,
        "workouts 2026-05-01 yoga": 1, "workoutMinutes 2026-05-01 yoga": 45,
        "workouts 2026-05-02": 1, "workoutMinutes 2026-05-02": 100,
        "workouts 2026-05-02 running": 1, "workoutMinutes 2026-05-02 running": 50,
        "workouts 2026-05-02 walking": 1, "workoutMinutes 2026-05-02 walking": 100,
        "workouts 2026-05-03": 3, "workouts 2026-05-03 walking": 3,
    ]

    static func storeOwnerMetrics(_ database: AppDatabase) async throws {
        var batch = MetricBatch()
        batch.samples = [
            // 2026-05-01: the phone 5,000 steps, the watch 6,500 (and 7,000 in its export): the phone is preferred.
            sample(.steps, phone, "2026-05-01T08:00", 2_000), sample(.steps, phone, "2026-05-01T12:00", 3_000),
            sample(.steps, watch, "2026-05-01T08:00", 2_500), sample(.steps, watch, "2026-05-01T12:00", 4_000),
            sample(.distance, phone, "2026-05-01T08:00", 3.14159), sample(.distance, watch, "2026-05-01T08:00", 4.2),
            // The phone has no energy: the watch gives it.
            sample(.activeEnergy, watch, "2026-05-01T08:00", 412.5),
            // 2026-05-02: the phone's total is above the ceiling and does not count; the watch's does.
            sample(.steps, phone, "2026-05-02T09:00", 250_000), sample(.steps, watch, "2026-05-02T09:00", 4_000),
            sample(.steps, watch, "2026-05-03T09:00", 1_234),
        ]
        batch.intervals = [
            // The night to 2026-05-01: the phone's and the watch's intervals overlap; 275 + 160 minutes asleep.
            interval(.sleep, phone, "2026-04-30T23:00", minutes: 275),
            interval(.sleep, watch, "2026-04-30T23:10", minutes: 260),
            interval(.sleep, watch, "2026-05-01T03:40", minutes: 160),
            // 2026-05-02: 300 minutes of intervals and a 420-minute total: the larger counts.
            interval(.sleep, watch, "2026-05-02T01:00", minutes: 300),
            interval(.sleepTotal, export, "2026-05-01T23:00", minutes: 420),
            // 2026-05-03: a total above a day's minutes does not count.
            interval(.sleepTotal, export, "2026-05-02T07:00", minutes: 1_500),
            // 2026-05-01: one run from two sources (the longer counts), and yoga.
            interval(.workout, watch, "2026-05-01T07:00", minutes: 34, activity: "running"),
            interval(.workout, export, "2026-05-01T07:01", minutes: 36, activity: "outdoorrun"),
            interval(.workout, phone, "2026-05-01T18:00", minutes: 45, activity: "yoga"),
            // 2026-05-02: three workouts that start at one instant.
            interval(.workout, watch, "2026-05-02T07:00", minutes: 10, activity: "running"),
            interval(.workout, watch, "2026-05-02T07:00", minutes: 100, activity: "walking"),
            interval(.workout, ring, "2026-05-02T07:00", minutes: 50, activity: "running"),
            // 2026-05-03: three workouts, 1,800 minutes in all: they count, their minutes do not.
            interval(.workout, watch, "2026-05-03T00:00", minutes: 600, activity: "walking"),
            interval(.workout, phone, "2026-05-03T10:00", minutes: 600, activity: "walking"),
            interval(.workout, ring, "2026-05-03T20:00", minutes: 600, activity: "walking"),
            // 2026-05-04: a workout longer than a day does not count.
            interval(.workout, watch, "2026-05-04T00:00", minutes: 1_500, activity: "hiking"),
        ]
        // A restless week: ten minutes asleep every three hours from 2026-05-10 to 2026-05-16 06:10 is
        // one night, for the 16th, which starts before the first days read for it (`sleepMinutes` widens).
        var nap = instant("2026-05-10T00:00")
        while nap <= instant("2026-05-16T06:00") {
            batch.intervals.append(interval(.sleep, ring, at: nap, minutes: 10))
            nap += 3 * 3_600
        }
        try await database.storeMetrics(batch)
        var export = MetricBatch()
        export.exportAggregates = [
            MetricAggregateRow(metric: "steps", day: LocalDay("2026-05-01")!, source: watch, value: 7_000, count: 12)
        ]
        export.exportDate = instant("2026-05-04T08:00")
        try await database.storeMetrics(export)
        try await database.setSetting(SettingKey.metricSourcePriority, to: "iPhone, Watch")
    }

    /// Seconds since 1970 of an Istanbul wall time, `2026-05-01T07:00`.
    static func instant(_ wallTime: String) -> Double {
        ISOInstant.parse(wallTime + ":00+03:00")!.timeIntervalSince1970
    }

    static func sample(_ metric: HealthMetric, _ source: String, _ wallTime: String, _ value: Double) -> MetricSampleRow
    {
        let start = instant(wallTime)
        return MetricSampleRow(
            metric: metric.rawValue, source: source, start: start, end: start + 600, value: value,
            day: clock.day(at: Date(timeIntervalSince1970: start)))
    }

    static func interval(
        _ kind: MetricIntervalRow.Kind, _ source: String, _ wallTime: String, minutes: Double, activity: String = ""
    ) -> MetricIntervalRow {
        interval(kind, source, at: instant(wallTime), minutes: minutes, activity: activity)
    }

    /// A workout counts for the day it starts, sleep for the day it ends.
    static func interval(
        _ kind: MetricIntervalRow.Kind, _ source: String, at start: Double, minutes: Double, activity: String = ""
    ) -> MetricIntervalRow {
        let end = start + minutes * 60
        return MetricIntervalRow(
            kind: kind, source: source, start: start, end: end, activity: activity, minutes: minutes,
            day: clock.day(at: Date(timeIntervalSince1970: kind == .workout ? start : end)))
    }
}
