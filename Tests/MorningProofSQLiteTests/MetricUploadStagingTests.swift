import Foundation
import GRDB
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

/// An upload on SQLite is staged a chunk at a time and published in one short transaction (issue 38):
/// another connection can write while it is being stored, what it counts is what storing it whole
/// counts, and what a killed server staged is removed when the file is opened again.
@Suite("Metric uploads staged on SQLite")
struct MetricUploadStagingTests {
    static let day = LocalDay("2026-03-01")!

    /// `count` step samples a minute apart from `offset`, whole numbers (sums exact in any order).
    static func steps(_ count: Int, from offset: Int = 0) -> [MetricSampleRow] {
        (offset..<offset + count).map { (n: Int) -> MetricSampleRow in
            let start: Double = 1_772_323_200 + Double(n * 60)
            let value = Double(n % 50 + 1)
            return MetricSampleRow(
                metric: "steps", source: "Watch", start: start, end: start + 60, value: value, day: day)
        }
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mp-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A connection of the test's own, which waits for the server's checkpoints as the server's do.
    static func queue(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    static func count(_ path: String, _ table: String) throws -> Int {
        try queue(path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }

    @Test func anotherConnectionWritesWhileAnUploadIsBetweenItsBatches() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let database = try AppDatabase.openShared(path: path, readers: 2)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let other = try DatabaseQueue(path: path, configuration: configuration)
        let batches = Batches([Self.steps(5_000), Self.steps(5_000, from: 5_000)])
        let seen = Batches.Seen()
        batches.between = {
            // The first batch is staged, nothing published; SQLite's write lock is free.
            try other.inTransaction(.immediate) { db in
                try db.execute(sql: "INSERT INTO metricDayMark (accountId, day, mark) VALUES (1, '2020-01-01', 1)")
                return .commit
            }
            seen.staged = try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM metricUploadSample") ?? -1 }
            seen.published = try other.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM metricSample") ?? -1 }
        }
        let outcome = try await database.storeMetrics(batches: { try batches.next() })
        #expect(seen.staged == 5_000)
        #expect(seen.published == 0)
        #expect(outcome.recordsStored == 10_000)
        #expect(try Self.count(path, "metricSample") == 10_000)
        #expect(try Self.count(path, "metricUploadSample") == 0)
        #expect(try Self.count(path, "metricDayMark") == 2)
    }

    /// An account deleted while its upload is being staged (`DELETE /api/auth/account` on another
    /// device): the upload ends as "not found" (404, as any write for a removed account), never
    /// "try again", and nothing of it is left, published or staged.
    @Test(.timeLimit(.minutes(1)))
    func anUploadWhoseAccountIsDeletedMeanwhileEndsNotFoundAndLeavesNothing() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let owner = try AppDatabase.openShared(path: path, readers: 2)
        let account = try #require(
            try await owner.createAccount(email: "b@example.com", passwordHash: "x", timeZone: "UTC", at: Date()))
        let batches = Batches([Self.steps(5_000), Self.steps(5_000, from: 5_000)])
        let deleted = Locked(false)
        batches.between = {
            // The first batch is staged; the account goes, by the real deletion, on a task of its
            // own (its write runs on GRDB's writer queue, not on the thread that waits for it).
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                let gone = (try? await owner.deleteAccount(account.id)) ?? false
                deleted.withLock { $0 = gone }
                done.signal()
            }
            done.wait()
        }
        do {
            _ = try await owner.scoped(to: account.id).storeMetrics(batches: { try batches.next() })
            Issue.record("an upload for a deleted account was stored")
        } catch let error as StoreError {
            #expect(error.code == .notFound, "\(error)")
        }
        #expect(deleted.withLock { $0 })
        let tables = ["metricSample", "metricDaily", "metricUploadSample", "metricUploadBucket", "metricUploadInterval"]
        for table in tables {
            #expect(try Self.count(path, table) == 0, "\(table)")
        }
        #expect(try await owner.deleteAccount(account.id) == false)
    }

    @Test func anUploadCountsAndTotalsWhatStoringItWholeDoes() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func bucket(_ hour: Int, _ value: Double) -> MetricSampleRow {
            MetricSampleRow(
                metric: "steps", source: "Phone", start: 1_772_323_200 + Double(hour * 3600),
                end: 1_772_323_200 + Double(hour * 3600 + 3600), value: value, day: Self.day, isBucket: true)
        }
        func night(_ n: Int, _ kind: MetricIntervalRow.Kind, _ minutes: Double) -> MetricIntervalRow {
            MetricIntervalRow(
                kind: kind, source: "Watch", start: 1_772_300_000 + Double(n * 600),
                end: 1_772_300_000 + Double(n * 600 + 300), minutes: minutes, day: Self.day)
        }
        var before = MetricBatch()
        before.samples = Self.steps(3_000) + [bucket(1, 100), bucket(2, 500)]
        before.intervals = [night(0, .sleep, 5), night(1, .sleepTotal, 300)]
        var upload = MetricBatch()
        // Half stored before, some twice in the upload; buckets raised, lowered, new and raised again.
        upload.samples =
            Self.steps(3_000, from: 1_500) + Self.steps(10)
            + [bucket(1, 150), bucket(2, 400), bucket(3, 70), bucket(3, 90), bucket(3, 80)]
        upload.intervals =
            [night(0, .sleep, 5), night(1, .sleepTotal, 420), night(2, .sleep, 4), night(2, .sleep, 4)]
            + (3..<2_500).map { night($0, .workout, 5) }
        var outcomes: [MetricWriteOutcome] = []
        var tables: [[String]] = []
        for (n, staged) in [false, true].enumerated() {
            let path = folder.appendingPathComponent("db\(n).sqlite").path
            let database = try AppDatabase.open(path: path)
            try await database.storeMetrics(before)
            let batches = Batches([upload.samples, []], intervals: [[], upload.intervals])
            if staged {
                outcomes.append(try await database.storeMetrics(batches: { try batches.next() }))
            } else {
                outcomes.append(try await database.storeMetrics(upload))
            }
            tables.append(
                try await Self.queue(path).read { db in
                    try [
                        "SELECT metric, day, source, origin, value, count FROM metricDaily ORDER BY 1, 2, 3, 4",
                        "SELECT metric, start, value FROM metricBucket ORDER BY 1, 2",
                        "SELECT kind, start, minutes FROM metricInterval ORDER BY 1, 2",
                        "SELECT count(*), sum(value) FROM metricSample",
                        "SELECT day, mark FROM metricDayMark ORDER BY 1",
                    ].map { sql in try Row.fetchAll(db, sql: sql).description }
                })
        }
        #expect(outcomes[1] == outcomes[0])
        #expect(outcomes[1].recordsStored == 1_500 + 4 + 1 + 2_497)
        #expect(tables[1] == tables[0])
    }

    @Test func rowsStagedByAKilledServerAreRemovedWhenTheFileIsOpened() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        _ = try AppDatabase.open(path: path)
        try await Self.queue(path).write { db in
            for n in 0..<12_000 {
                try db.execute(
                    sql: """
                        INSERT INTO metricUploadSample (uploadId, metric, source, start, end, value, day)
                        VALUES (7, 'steps', 'Watch', ?, ?, 1, '2026-03-01')
                        """, arguments: [n, n])
            }
            try db.execute(
                sql: """
                    INSERT INTO metricUploadInterval (uploadId, kind, source, start, end, activity, minutes, day)
                    VALUES (7, 'sleep', 'Watch', 0, 60, '', 1, '2026-03-01');
                    INSERT INTO metricUploadBucket (uploadId, metric, source, start, end, value, day)
                    VALUES (7, 'steps', 'Phone', 0, 3600, 1, '2026-03-01');
                    """)
        }
        _ = try AppDatabase.openShared(path: path, readers: 1)
        for table in ["metricUploadSample", "metricUploadInterval", "metricUploadBucket", "metricSample"] {
            #expect(try Self.count(path, table) == 0, "\(table)")
        }
    }
}

/// Batches given one at a time, with `between` run before each batch after the first.
final class Batches: @unchecked Sendable {
    final class Seen: @unchecked Sendable {
        var staged = -1
        var published = -1
    }
    private var samples: [[MetricSampleRow]]
    private var intervals: [[MetricIntervalRow]]
    private var given = 0
    var between: () throws -> Void = {}

    init(_ samples: [[MetricSampleRow]], intervals: [[MetricIntervalRow]]? = nil) {
        self.samples = samples
        self.intervals = intervals ?? samples.map { _ in [] }
    }

    func next() throws -> MetricBatch? {
        guard given < samples.count else { return nil }
        if given > 0 { try between() }
        var batch = MetricBatch()
        batch.samples = samples[given]
        batch.intervals = intervals[given]
        given += 1
        return batch
    }
}
