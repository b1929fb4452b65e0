import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore
@testable import MorningProofService
import MorningProofStoreContract
@testable import MorningProofSQLite

@Suite("Watched sources")
struct SourceScannerTests {
    let folder: URL
    let database: AppDatabase
    let scanner: SourceScanner

    init() throws {
        folder = try HealthFixtures.temporaryFolder()
        database = try AppDatabase.inMemory()
        scanner = SourceScanner(database: database, clock: HealthFixtures.clock)
    }

    func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    func steps(_ day: String) async throws -> Double? {
        try await database.metricValue(metric: "steps", day: HealthFixtures.day(day))
    }

    @Test("an unchanged file is skipped without being read")
    func unchangedSkipped() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = file("metrics.csv")
        try FileManager.default.copyItem(atPath: HealthFixtures.path("metrics.csv"), toPath: path)
        try await database.addMetricSource(path)
        let first = try await scanner.scanChangedSources()
        #expect(first.filesRead == 1)
        #expect(first.recordsRead == 5)
        #expect(first.daysTouched == [HealthFixtures.day("2026-03-07"), HealthFixtures.day("2026-03-08")])
        #expect(first.warnings.contains { $0.contains("line 4") })
        let second = try await scanner.scanChangedSources()
        #expect(second.filesRead == 0)
        #expect(second.filesUnchanged == 1)
        #expect(second.recordsRead == 0)
    }

    @Test("an appended CSV resumes after its last complete line; a partial line waits, uncounted")
    func appendResumes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = file("steps.csv")
        try "date,metric,value,unit,source\n2026-03-08,steps,100,count,X\n2026-03-09,steps,12".write(
            toFile: path, atomically: false, encoding: .utf8)
        try await database.addMetricSource(path)
        let first = try await scanner.scanChangedSources()
        #expect(first.recordsRead == 1)
        #expect(first.files.first?.complete == false)
        await #expect(try steps("2026-03-09") == nil)  // "12" may be the start of "1234"
        try append("34,count,X\nbad line\n2026-03-10,steps,5,count,X\n", to: path)
        let second = try await scanner.scanChangedSources()
        #expect(second.recordsRead == 2)  // resumed: the first line is not read again
        #expect(second.duplicatesSkipped == 0)
        #expect(second.warnings.contains { $0.contains("line 4") })  // true line numbers after a resume
        await #expect(try steps("2026-03-08") == 100)
        await #expect(try steps("2026-03-09") == 1234)
        await #expect(try steps("2026-03-10") == 5)
    }

    @Test("a file rewritten in place is read whole again, and nothing counts twice")
    func rewrittenFileDeduplicated() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = file("log.jsonl")
        let line = #"{"metric": "steps", "value": 700, "start": "2026-03-08T09:00:00-04:00", "source": "Band"}"# + "\n"
        try line.write(toFile: path, atomically: false, encoding: .utf8)
        try await database.addMetricSource(path)
        _ = try await scanner.scanChangedSources()
        let other = #"{"metric": "steps", "value": 300, "start": "2026-03-08T10:00:00-04:00", "source": "Band"}"# + "\n"
        try (other + line).write(toFile: path, atomically: true, encoding: .utf8)  // new inode, new head
        let report = try await scanner.scanChangedSources()
        #expect(report.recordsRead == 2)
        #expect(report.duplicatesSkipped == 1)
        await #expect(try steps("2026-03-08") == 1000)
    }

    @Test("an export caught mid-write is read up to its last complete record and finished later")
    func partialExportFinishedLater() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = try Data(contentsOf: URL(fileURLWithPath: HealthFixtures.path("export.xml")))
        let text = String(decoding: full, as: UTF8.self)
        // Cut inside the watch's 18:01 step record.
        let cut = try #require(text.range(of: "startDate=\"2026-03-07 18:01:00"))
        let path = file("export.xml")
        try Data(text[..<cut.lowerBound].utf8).write(to: URL(fileURLWithPath: path))
        try await database.addMetricSource(path)
        try await database.setSetting(SettingKey.metricSourcePriority, to: "Watch")
        let first = try await scanner.scanChangedSources()
        #expect(first.files.first?.complete == false)
        #expect(first.warnings.contains { $0.contains("before </HealthData>") })
        await #expect(try steps("2026-03-07") == 4000)  // the cut record is not counted, not even in part
        await #expect(try scanner.scanChangedSources().filesRead == 0)  // unchanged: waits for the writer
        try full.write(to: URL(fileURLWithPath: path))
        let second = try await scanner.scanChangedSources()
        #expect(second.files.first?.complete == true)
        await #expect(try steps("2026-03-07") == 6500)
        await #expect(try database.metricValue(metric: "sleep", day: HealthFixtures.day("2026-03-06")) == 435)
    }

    @Test("a folder: its metrics files are read, other files ignored; missing and foreign files are warnings")
    func foldersAndWarnings() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: HealthFixtures.path("export.zip"), toPath: inbox.appendingPathComponent("Export 2026.zip").path)
        try FileManager.default.copyItem(
            atPath: HealthFixtures.path("metrics.jsonl"), toPath: inbox.appendingPathComponent("band.log").path)
        try "shopping list\n".write(to: inbox.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let foreign = file("notes.md")
        try "# not metrics\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        try await database.addMetricSource(inbox.path)
        try await database.addMetricSource(foreign)
        try await database.addMetricSource(file("gone.csv"))
        let report = try await scanner.scanChangedSources()
        #expect(report.filesRead == 2)
        #expect(report.warnings.contains { $0.contains("gone.csv") && $0.contains("no such file") })
        #expect(report.warnings.contains { $0.contains("notes.md") && $0.contains("not a metrics file") })
        #expect(!report.warnings.contains { $0.contains("notes.txt") })
        await #expect(try steps("2026-03-07") == 6500)
        await #expect(try steps("2026-03-08") == 700)  // the band's 700 beats the phone's 300
        let again = try await scanner.scanChangedSources()
        #expect(again.filesRead == 0)
        #expect(again.filesUnchanged == 3)  // the two metrics files and notes.txt, none read again
    }
}
