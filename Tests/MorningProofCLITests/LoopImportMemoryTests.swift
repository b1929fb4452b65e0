import Foundation
import MorningProofTestSupport
import TestFixtures
import Testing

/// A Loop backup is imported one habit at a time (issue 41's known weakness): its plan held every
/// repetition, so a 44.8 MB backup of 1,175,250 repetitions peaked at 971 MB over HTTP. The CLI and
/// `POST /api/import` import through the same `ImportService`; its peak now holds one habit's days.
@Suite("import loop: a large backup in bounded memory")
struct LoopImportMemoryTests {
    @Test func aBackupOf300000RepetitionsIsImportedInUnder150MB() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mp-loop-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = folder.appendingPathComponent("loop.db")
        // 100 habits of 3,000 days each (11 MB): every day before the import's today.
        let made = try BuiltBinary.run(
            executable: Repository.url("scripts/make-loop-backup"), ["100", "3000", backup.path])
        #expect(made.status == 0, "make-loop-backup: \(made.stderr)")
        let database = folder.appendingPathComponent("data.sqlite").path
        let run = try MetricImportMemoryTests.peakMemory(
            ["import", "loop", backup.path, "--apply", "--db", database, "--now", "2026-03-10T09:00:00Z", "--json"],
            in: folder)
        #expect(run.status == 0)
        #expect(run.peak < 150 << 20, "peak memory \(run.peak >> 20) MB for a backup of 300,000 repetitions")
        // All of it was stored: 100 habits, and their days done or skipped (a NO every 11th day is none).
        let counts = try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [database, "SELECT (SELECT count(*) FROM habit) || ' ' || (SELECT count(*) FROM entry)"])
        let numbers = counts.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == 100 && numbers[1] > 250_000, "\(counts.stdout) \(counts.stderr)")
    }
}
