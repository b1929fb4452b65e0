import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics

/// A file that cannot be read at all is a `MetricFileError` naming the file and why; the CLI turns
/// `.noSuchFile` into exit 66 and `.notMetrics` into 65 (MetricsCommandTests).
@Suite("Metric file errors carry their kind and file")
struct MetricFileErrorTests {
    func error(_ body: () throws -> Void) -> MetricFileError? {
        do {
            try body()
            return nil
        } catch let error as MetricFileError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func aMissingFileIsNoSuchFileWhateverTheReader() throws {
        let gone = "/nonexistent/export.xml"
        let reader = AppleHealthReader(clock: HealthFixtures.clock)
        for failure in [
            error { _ = try FileIdentity.of(gone) },
            error { _ = try reader.readXML(path: gone) },
        ] {
            let failure = try #require(failure)
            #expect(failure.code == .noSuchFile)
            #expect(failure.path == gone)
            #expect(failure.message.hasPrefix(gone + ": "))
        }
        let json = try #require(error { _ = try HealthAutoExportReader(clock: HealthFixtures.clock).readFile(gone) })
        #expect(json.code == .unreadable && json.path == gone)
    }

    @Test func aFileOfAnotherKindIsNotMetricsWithTheParsersWords() throws {
        let folder = try HealthFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.json").path
        try Data("{\"data\": [1,".utf8).write(to: URL(fileURLWithPath: broken))
        let json = try #require(error { _ = try HealthAutoExportReader(clock: HealthFixtures.clock).readFile(broken) })
        #expect(json.code == .notMetrics)
        #expect(json.message.contains("the JSON is broken or cut short"))
        #expect(json.cause != nil)

        let xml = folder.appendingPathComponent("notes.xml").path
        try Data("<notes/>".utf8).write(to: URL(fileURLWithPath: xml))
        let notHealth = try #require(error { _ = try AppleHealthReader(clock: HealthFixtures.clock).readXML(path: xml) })
        #expect(notHealth.code == .notMetrics && notHealth.path == xml)

        let zip = folder.appendingPathComponent("export.zip").path
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: zip))
        let notZip = try #require(error { _ = try AppleHealthReader(clock: HealthFixtures.clock).readZip(path: zip) })
        #expect(notZip.code == .notMetrics && notZip.message.contains("not a readable ZIP archive"))
    }
}
