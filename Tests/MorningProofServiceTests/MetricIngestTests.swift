import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

/// `MetricIngest`'s entry point for a received body: the format from the declared Content-Type or,
/// for a form, from the file's content; the body named by its label in every message, never by the
/// path it was written to.
@Suite struct MetricIngestTests {
    static let clock = DayClock(zoneIdentifier: "UTC")!
    static let now = ISOInstant.parse("2026-03-02T12:00:00Z")!
    static let csv = "date,metric,value\n2026-03-01,steps,4200\n"

    /// Ingests `text` as a body of `type`, written to a file of its own.
    static func ingest(_ text: String, as type: String, limit: Int = 1 << 20, into database: AppDatabase)
        async throws -> IngestOutcome
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("body").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let body = ReceivedMetrics(
            path: path, size: text.utf8.count, type: try #require(MetricBodyType(mediaType: type)), label: "the body",
            limit: limit)
        return try await MetricIngest(store: database, clock: clock).ingest(body, now: now)
    }

    static func report(_ outcome: IngestOutcome) -> IngestReport? {
        if case .ingested(let report) = outcome { return report }
        return nil
    }

    @Test func aFormsFileIsReadInTheFormatItsContentShows() async throws {
        let database = try AppDatabase.inMemory()
        let report = try #require(
            Self.report(try await Self.ingest(Self.csv, as: "multipart/form-data", into: database)))
        #expect(report.records == 1)
        #expect(report.daysTouched == LocalDay("2026-03-01")!...LocalDay("2026-03-01")!)
    }

    @Test func aFormsFileThatIsNoMetricsFileIsBadInput() async throws {
        let database = try AppDatabase.inMemory()
        let error = await #expect(throws: MorningProofError.self) {
            try await Self.ingest("hello", as: "multipart/form-data", into: database)
        }
        #expect(error?.kind == .dataError)
        #expect(error?.message.hasPrefix("the form's file is not a metrics file") == true)
    }

    /// Only an Apple export may use the export's larger limit: a form's CSV over the metrics limit is not read.
    @Test func aFormsFileOverTheLimitOfItsFormatIsTooLarge() async throws {
        let database = try AppDatabase.inMemory()
        let outcome = try await Self.ingest(Self.csv, as: "multipart/form-data", limit: 10, into: database)
        #expect(Self.report(outcome) == nil)
        await #expect(try database.metricDays(from: LocalDay("2026-03-01")!, to: LocalDay("2026-03-01")!).isEmpty)
        // A declared type was held to its limit while it streamed: its size is not looked at again.
        #expect(Self.report(try await Self.ingest(Self.csv, as: "text/csv", limit: 10, into: database)) != nil)
    }

    @Test func messagesNameTheBodyByItsLabel() async throws {
        let database = try AppDatabase.inMemory()
        let error = await #expect(throws: MorningProofError.self) {
            try await Self.ingest(Self.csv, as: "application/json", into: database)
        }
        #expect(error?.message == "the body: not Health Auto Export JSON but CSV")
        let broken = await #expect(throws: MorningProofError.self) {
            try await Self.ingest("{\"data\": {\"metrics\": 3}}", as: "application/json", into: database)
        }
        #expect(
            broken?.message.hasPrefix("the body: not a Health Auto Export file") == true, "\(broken?.message ?? "")")
    }

    @Test func theTypesTakenAreListedInOrderAndAFormMayBeAnExport() {
        #expect(MetricBodyType.mediaTypes.first == "application/json")
        #expect(MetricBodyType.mediaTypes.last == "multipart/form-data")
        #expect(MetricBodyType(mediaType: "image/png") == nil)
        #expect(MetricBodyType(mediaType: "multipart/form-data")?.mayBeAppleExport == true)
        #expect(MetricBodyType(mediaType: "text/csv")?.mayBeAppleExport == false)
        #expect(MetricBodyType(mediaType: "application/zip")?.mayBeAppleExport == true)
    }
}
