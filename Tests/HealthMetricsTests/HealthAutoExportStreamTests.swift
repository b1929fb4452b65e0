import Foundation
import MorningProofCore
import TestFixtures
import Testing

@testable import HealthMetrics

/// Health Auto Export JSON read a chunk at a time (issue 38, point 5): the same samples and
/// warnings wherever the chunks break, and bad input still refused with the parser's words.
@Suite("Health Auto Export read as a stream")
struct HealthAutoExportStreamTests {
    let reader = HealthAutoExportReader(clock: HealthFixtures.clock)

    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: HealthFixtures.path("auto-export/\(name)")))
    }

    func refusal(_ text: String, chunkSize: Int = 3) -> MetricFileError? {
        do {
            _ = try reader.read(Data(text.utf8), file: "x.json", chunkSize: chunkSize)
            return nil
        } catch {
            return error as? MetricFileError
        }
    }

    @Test(arguments: ["v2-rest.json", "sleep-stages.json", "v1-older.json", "resend-0900.json"])
    func theSameSamplesWhereverTheChunksBreak(file: String) throws {
        let data = try fixture(file)
        let whole = try reader.read(data, file: file)
        #expect(!whole.samples.isEmpty)
        for size in [1, 2, 7, 64, 4096] {
            let chunked = try reader.read(data, file: file, chunkSize: size)
            #expect(chunked.samples.map(\.dedupKey) == whole.samples.map(\.dedupKey), "chunks of \(size)")
            #expect(chunked.warnings == whole.warnings, "chunks of \(size)")
        }
    }

    @Test func aMetricWhoseDataComesBeforeItsNameIsReadAllTheSame() throws {
        let json = """
            {"data": {"metrics": [{"data": [{"qty": 10, "date": "2026-04-14 08:00:00 -0400"}, 3],
              "units": "count", "name": "step_count"}]}}
            """
        let (samples, warnings) = try reader.read(Data(json.utf8), file: "late.json", chunkSize: 5)
        #expect(samples.map(\.value) == [10])
        #expect(warnings.map(\.location) == ["metrics[0] step_count data[1]"])
    }

    @Test func badInputIsRefusedWithTheWordsItHadWherever() throws {
        for (text, saying) in [
            (#"{"data": {"metrics": [1,"#, "the JSON is broken or cut short"),
            (#"{"data": {"metrics": []}} x"#, "the JSON is broken or cut short"),
            (#"{"data": {"metrics": [{"name": "step_count", "data": [{"qty": NaN}]}]}}"#, "broken or cut short"),
            (#"{"data": {"metrics": "steps"}, "extra": [1,]}"#, "broken or cut short"),
            (#"{"data": {"metrics": [{"name": "x\q"}]}}"#, "broken or cut short"),
            (#"{"data": {"metrics": [01]}}"#, "broken or cut short"),
            (#"{"data": {"workouts": {}, "metrics": 3}}"#, "\"data.metrics\" is not a list"),
            (#"[1]"#, "no top-level object"), (#"{"data": null}"#, "no \"data\" object"),
            (
                #"{"data": {"metrics": "# + String(repeating: "[", count: 100_000)
                    + String(repeating: "]", count: 100_000) + "}}", "nested deeper than 512"
            ),
        ] {
            let error = try #require(refusal(text), "\(text.prefix(60)) was read")
            #expect(error.code == .notMetrics && error.message.contains(saying), "\(error.message)")
        }
    }

    @Test func anEntryOfMoreThanAMegabyteIsAWarningAndItsNeighboursAreRead() throws {
        let huge = String(repeating: "a", count: 1 << 20)
        let json = """
            {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
              {"qty": 10, "date": "2026-04-14 08:00:00 -0400", "note": "\(huge)"},
              {"qty": 20, "date": "2026-04-14 09:00:00 -0400"}]}]}}
            """
        let (samples, warnings) = try reader.read(Data(json.utf8), file: "big.json", chunkSize: 4096)
        #expect(samples.map(\.value) == [20])
        #expect(warnings.map(\.location) == ["metrics[0] step_count data[0]"])
    }
}
