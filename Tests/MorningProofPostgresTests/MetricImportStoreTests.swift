import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// `MetricImportStore` on both engines: the same batches store the same records, count the same
/// duplicates, touch the same days and give the same totals; overlapping parts give what their
/// union gives.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct MetricImportStoreTests {
    typealias M = MetricValueTests

    @Test func batchesStoreAndTotalTheSameOnBothEngines() async throws {
        let onSQLite = try await Self.withImportStore(.sqlite) { try await Self.storeInParts($0) }
        let onPostgres = try await Self.withImportStore(.postgres) { try await Self.storeInParts($0) }
        #expect(onPostgres == onSQLite)
        // What the rules give, so that both engines agreeing is not both being wrong.
        #expect(
            onSQLite.outcomes == [
                Outcome(stored: 5, duplicates: 2, days: ["2026-05-01", "2026-05-02"]),
                Outcome(stored: 2, duplicates: 4, days: ["2026-05-02", "2026-05-03"]),
                Outcome(stored: 12, duplicates: 0, days: ["2026-05-01"]),
                Outcome(stored: 3, duplicates: 12, days: ["2026-05-01"]),
                Outcome(stored: 0, duplicates: 20, days: []),
                Outcome(stored: 0, duplicates: 22, days: []),
            ])
        #expect(onSQLite.days[LocalDay("2026-05-01")!]?["steps"] == 9_000)
        #expect(onSQLite.days[LocalDay("2026-05-02")!]?["steps"] == 700)
        #expect(onSQLite.range == LocalDay("2026-05-01")!...LocalDay("2026-05-03")!)
        #expect(onSQLite.aboveCeiling == ["steps 2026-05-03 \(M.phone) 250000.0"])
        #expect(onSQLite.stepsOnFirst == 9_000)
    }

    @Test func overlappingPartsGiveWhatTheirUnionGives() async throws {
        for engine in Engine.available {
            let parts = try await Self.withImportStore(engine) { try await Self.storeInParts($0) }
            let union = try await Self.withImportStore(engine) { store in
                var batch = MetricBatch()
                batch.samples = Self.morning.samples + Self.noon.samples
                batch.intervals = Self.morning.intervals + Self.noon.intervals
                _ = try await store.storeMetrics(batch, file: nil)
                _ = try await store.storeMetrics(
                    Self.export(value: 9_000, count: 15, date: "2026-05-05T08:00"), file: nil)
                return try await Self.totals(store)
            }
            #expect(union.days == parts.days, "\(engine)")
            #expect(union.range == parts.range, "\(engine)")
            #expect(union.aboveCeiling == parts.aboveCeiling, "\(engine)")
            #expect(union.stepsOnFirst == parts.stepsOnFirst, "\(engine)")
        }
    }

    @Test func theFileReadIsSavedWithItsBatch() async throws {
        let state = WatchedFileState(
            path: "/health/steps.csv", size: 120, mtime: 1_777_600_000, inode: 42, headFingerprint: "abc",
            resumeOffset: 120, resumeLine: 3, complete: true, format: "csv", readAt: Fixture.noon)
        let sqlite = try AppDatabase.inMemory()
        _ = try await sqlite.storeMetrics(Self.morning, file: state)
        #expect(try await sqlite.watchedFile(state.path) == state)
        try await TestPostgres.withStore { store in
            _ = try await store.storeMetrics(Self.morning, file: state)
            let rows = try await store.client.query(
                "SELECT path, size, inode, resumeOffset, resumeLine, complete, format, readAt FROM watchedFile"
            ).collect()
            #expect(rows.count == 1)
            let (path, size, inode, offset, line, complete, format, readAt) = try #require(rows.first).decode(
                (String, Int64, Int64, Int64, Int64, Bool, String, Date).self)
            #expect(path == state.path && size == 120 && inode == 42 && offset == 120 && line == 3)
            #expect(complete && format == "csv" && readAt == Fixture.noon)
        }
    }
}

/// The batches and what is compared.
extension MetricImportStoreTests {
    struct Outcome: Equatable, Sendable {
        var stored: Int
        var duplicates: Int
        var days: Set<LocalDay>

        init(stored: Int, duplicates: Int, days: [String]) {
            self.stored = stored
            self.duplicates = duplicates
            self.days = Set(days.compactMap { LocalDay($0) })
        }

        init(_ outcome: MetricWriteOutcome) {
            stored = outcome.recordsStored
            duplicates = outcome.duplicatesSkipped
            days = outcome.daysTouched
        }
    }

    struct Totals: Equatable, Sendable {
        var outcomes: [Outcome] = []
        var days: [LocalDay: [String: Double]] = [:]
        var range: ClosedRange<LocalDay>?
        var aboveCeiling: [String] = []
        var stepsOnFirst: Double?
    }

    /// The morning's data, one sample and one interval sent twice within it.
    static let morning: MetricBatch = {
        var batch = MetricBatch()
        let walk = M.sample(.steps, M.phone, "2026-05-01T08:00", 2_000)
        batch.samples = [walk, walk, M.sample(.steps, M.phone, "2026-05-01T12:00", 3_000)]
        batch.samples.append(M.sample(.steps, M.phone, "2026-05-02T09:00", 500))
        let night = M.interval(.sleep, M.watch, "2026-05-01T23:00", minutes: 420)
        batch.intervals = [
            night, night, M.interval(.workout, M.watch, "2026-05-01T07:00", minutes: 30, activity: "running"),
        ]
        return batch
    }()

    /// Noon's: the morning resent with more steps on the 2nd, and a day above the ceiling.
    static let noon: MetricBatch = {
        var batch = MetricBatch()
        batch.samples = Array(morning.samples.dropFirst())
        batch.samples.append(M.sample(.steps, M.phone, "2026-05-02T11:00", 200))
        batch.samples.append(M.sample(.steps, M.phone, "2026-05-03T09:00", 250_000))
        batch.intervals = [morning.intervals[2]]
        return batch
    }()

    static func export(value: Double, count: Int, date: String, complete: Bool = true) -> MetricBatch {
        var batch = MetricBatch()
        batch.exportAggregates = [
            MetricAggregateRow(
                metric: "steps", day: LocalDay("2026-05-01")!, source: M.watch, value: value, count: count)
        ]
        batch.exportDate = M.instant(date)
        batch.exportComplete = complete
        return batch
    }

    /// The morning, noon, an export, a newer one replacing it, an older one and one cut short that
    /// change nothing, then everything sent again.
    static func storeInParts(_ store: any MetricImportStore & SettingsStore) async throws -> Totals {
        var outcomes: [Outcome] = []
        for batch in [
            morning, noon, export(value: 7_000, count: 12, date: "2026-05-04T08:00"),
            export(value: 9_000, count: 15, date: "2026-05-05T08:00"),
            export(value: 6_000, count: 20, date: "2026-05-03T08:00"),
            export(value: 9_500, count: 22, date: "2026-05-04T09:00", complete: false),
        ] {
            outcomes.append(Outcome(try await store.storeMetrics(batch, file: nil)))
        }
        for batch in [morning, noon] {
            let again = try await store.storeMetrics(batch, file: nil)
            #expect(again.recordsStored == 0 && again.daysTouched.isEmpty)
        }
        var totals = try await totals(store)
        totals.outcomes = outcomes
        return totals
    }

    /// What the reads give, with the watch preferred.
    static func totals(_ store: any MetricImportStore & SettingsStore) async throws -> Totals {
        try await store.setSetting(SettingKey.metricSourcePriority, to: "Watch")
        let first = LocalDay("2026-05-01")!
        var totals = Totals()
        totals.days = try await store.metricDays(from: LocalDay("2026-04-28")!, to: LocalDay("2026-05-05")!)
        totals.range = try await store.metricDayRange()
        totals.aboveCeiling = try await store.metricTotalsAboveCeiling(on: Set((0..<4).map { first.adding(days: $0) }))
            .map { "\($0.metric.rawValue) \($0.total.day) \($0.total.source) \($0.total.value)" }
        totals.stepsOnFirst = try await store.metricValue(metric: "steps", day: first, activity: nil)
        return totals
    }

    /// `body` with an empty store of `engine`, as the owner.
    static func withImportStore<T: Sendable>(
        _ engine: Engine, _ body: (any MetricImportStore & SettingsStore) async throws -> T
    ) async throws -> T {
        switch engine {
        case .sqlite: return try await body(try AppDatabase.inMemory())
        case .postgres: return try await TestPostgres.withStore { try await body($0) }
        }
    }
}
