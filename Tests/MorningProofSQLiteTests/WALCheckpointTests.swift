import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

/// A server's WAL is checkpointed off the write path (issue 38): no write runs a checkpoint, and the
/// WAL does not stay as large as the largest upload made it.
@Suite("The WAL of a server's database")
struct WALCheckpointTests {
    @Test func theWALIsBackUnderABoundAfterManyUploads() async throws {
        let folder = try MetricUploadStagingTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let database = try AppDatabase.openShared(path: path, readers: 2)
        let wal = { ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0 }
        var largest = 0
        for upload in 0..<3 {
            let batches = Batches([MetricUploadStagingTests.steps(60_000, from: upload * 60_000)])
            _ = try await database.storeMetrics(batches: { try batches.next() })
            largest = max(largest, wal())
        }
        let bound = 8 << 20
        // Waited for by what it waits for (generous on a busy machine), not timed.
        let deadline = Date().addingTimeInterval(120)
        while wal() >= bound, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(wal() < bound, "the WAL stayed at \(wal()) bytes (\(largest) at most during the uploads)")
        #expect(try MetricUploadStagingTests.count(path, "metricSample") == 180_000)
    }
}
