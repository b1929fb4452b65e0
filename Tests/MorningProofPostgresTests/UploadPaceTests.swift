import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// An upload gives urgent work its turn between the chunks it writes, on both engines (issue 38):
/// the database's process writes each chunk at the priority of every other request, so the server
/// waits, before each one, while a sign-in is being hashed (`CPUWork.yieldToUrgentWork`).
@Suite struct UploadPaceTests {
    /// Runs work on the caller's task and counts the turns given; each turn says it waited
    /// `pretending` (or the caller's limit, when less), without waiting.
    final class CountingWork: CPUWork, @unchecked Sendable {
        private let lock = NSLock()
        private var turns: [Duration] = []
        let pretending: Duration

        init(pretending: Duration = .zero) { self.pretending = pretending }

        var turnsGiven: [Duration] { lock.withLock { turns } }

        func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T { try body() }

        func yieldToUrgentWork(atMost limit: Duration) async -> Duration {
            let waited = min(pretending, limit)
            lock.withLock { turns.append(waited) }
            return waited
        }
    }

    /// `rows` step samples of 2026-03-01 from 06:00 UTC, 5 s each, as a CSV file with start and end columns.
    static func stepsFile(_ rows: Int) throws -> String {
        let utc = TimeZone(identifier: "UTC")!
        var text = "start,end,metric,value\n"
        for row in 0..<rows {
            let start = Date(timeIntervalSince1970: 1_772_344_800 + Double(row * 5))
            let end = start.addingTimeInterval(5)
            text += "\(ISOInstant.format(start, in: utc)),\(ISOInstant.format(end, in: utc)),steps,1\n"
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: Engine.available)
    func anUploadGivesUrgentWorkATurnBeforeEachChunkItWrites(engine: Engine) async throws {
        let path = try Self.stepsFile(12_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await engine.withStore { store in
            let work = CountingWork()
            let clock = DayClock(zoneIdentifier: "UTC")!
            let report = try await MetricIngest(store: store, clock: clock, cpu: work).ingest(
                file: path, as: .csv, now: ISOInstant.parse("2026-03-02T12:00:00Z")!)
            #expect(report.records == 12_000)
            #expect(report.duplicates == 0)
            // Both engines write 12,000 rows in more than one chunk (SQLite stages 2,000 at a
            // time, PostgreSQL sends 5,000 a statement): a turn before each, none for a whole upload.
            #expect(work.turnsGiven.count >= 3, "turns given: \(work.turnsGiven)")
            let day = LocalDay("2026-03-01")!
            let stored = try await store.metricDays(from: day, to: day)
            #expect(stored[day]?["steps"] == 12_000, "\(stored)")
        }
    }

    /// An upload's turns add up to 5 s at most: a flood of sign-ins, which anyone may send, delays
    /// a large upload by that, not by a wait per chunk (24,000 rows: 12 chunks on SQLite, 5 on
    /// PostgreSQL, each of which would have waited).
    @Test(arguments: Engine.available)
    func anUploadYieldsFiveSecondsInAllHoweverManyChunksItHas(engine: Engine) async throws {
        let path = try Self.stepsFile(24_000)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await engine.withStore { store in
            let work = CountingWork(pretending: .seconds(2))
            let ingest = MetricIngest(store: store, clock: DayClock(zoneIdentifier: "UTC")!, cpu: work)
            let report = try await ingest.ingest(
                file: path, as: .csv, now: ISOInstant.parse("2026-03-02T12:00:00Z")!)
            #expect(report.records == 24_000)
            #expect(work.turnsGiven == [.seconds(2), .seconds(2), .seconds(1)])
        }
    }
}
