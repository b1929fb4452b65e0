import Foundation
import MorningProofTestSupport
import Testing

/// A Health Auto Export file is read as a stream (issue 38, point 5): decoded whole, a 49 MB
/// upload held 9.7 times its size (527 MB for one, 909 MB for two at once). `metrics import` and
/// `POST /api/metrics` read it with the same reader; its peak memory now holds the rows, not the JSON.
@Suite("metrics import: a large Health Auto Export file in bounded memory")
struct MetricImportMemoryTests {
    /// One `sleep_analysis` metric holding `intervals` stage intervals (the attack's file held
    /// 443,000), three minutes each, every fifth one Awake, and a heart-rate series that is not ours.
    static func sleepExport(intervals: Int) -> Data {
        var text = #"{"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": ["#
        text.reserveCapacity(intervals * 130)
        let start = 1_735_689_600  // 2025-01-01 00:00 UTC
        func stamp(_ seconds: Int) -> String {
            Date(timeIntervalSince1970: TimeInterval(seconds)).ISO8601Format().replacingOccurrences(of: "T", with: " ")
                .replacingOccurrences(of: "Z", with: " +0000")
        }
        for beat in 0..<intervals / 10 {
            text += beat == 0 ? "" : ", "
            text += #"{"Min": 50, "Avg": 60, "Max": 70, "date": "\#(stamp(start + beat * 60))"}"#
        }
        text += #"]}, {"name": "sleep_analysis", "units": "hr", "data": ["#
        let stages = ["Core", "Deep", "REM", "Awake", "Asleep"]
        for interval in 0..<intervals {
            let from = start + interval * 180
            text += interval == 0 ? "" : ", "
            text += #"{"startDate": "\#(stamp(from))", "endDate": "\#(stamp(from + 180))", "#
            text += #""value": "\#(stages[interval % 5])", "source": "Alice’s Apple Watch"}"#
        }
        text += "]}], \"workouts\": []}}"
        return Data(text.utf8)
    }

    /// Runs the built `morningproof ARGUMENTS` to its end: its exit status and its peak resident memory
    /// in bytes, as GNU time measures it. Not this process's own `wait4`: a child spawned from this
    /// (large) test process starts out sharing its memory, and Linux keeps that high-water mark in the
    /// child's `ru_maxrss` across `exec` (382 MB in the full suite); `time` forks from a small process.
    static func peakMemory(_ arguments: [String], in folder: URL) throws -> (status: Int32, peak: Int) {
        let report = folder.appendingPathComponent("peak-kb")
        let time = Process()
        time.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        time.arguments = ["-f", "%M", "-o", report.path, BuiltBinary.url("morningproof").path] + arguments
        time.standardOutput = FileHandle.nullDevice
        try time.run()
        time.waitUntilExit()
        let text = try String(contentsOf: report, encoding: .utf8)
        // `time` writes "Command exited with non-zero status N" before the figure when it did.
        guard let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap({ Int($0) }) else {
            throw TestFailure("no peak memory in time's report: \(text)")
        }
        return (time.terminationStatus, kilobytes * 1024)
    }

    @Test func aFileOf20MBIsImportedInUnder150MB() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sleep.json")
        let export = Self.sleepExport(intervals: 150_000)
        #expect(export.count > 20_000_000)
        try export.write(to: file)
        let run = try Self.peakMemory(
            [
                "metrics", "import", file.path, "--db", folder.appendingPathComponent("data.sqlite").path, "--now",
                "2026-04-15T09:00:00Z", "--json",
            ], in: folder)
        #expect(run.status == 0)
        #expect(run.peak < 150 << 20, "peak memory \(run.peak >> 20) MB for a \(export.count >> 20) MB file")
    }
}
