import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore

@Suite("Format detection and sample readers")
struct SampleReaderTests {
    @Test("each fixture is recognised by its content, whatever its name")
    func detectsByContent() throws {
        let expected: [String: MetricFileFormat] = [
            "export.xml": .appleHealthXML, "export.zip": .appleHealthZip, "health-auto-export.json": .healthAutoExport,
            "metrics.csv": .csv, "intervals.csv": .csv, "metrics.jsonl": .jsonLines,
        ]
        let folder = try HealthFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, format) in expected {
            // Renamed to something meaningless: only the bytes decide.
            let copy = folder.appendingPathComponent("data-\(name.count).bin").path
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: HealthFixtures.path(name), toPath: copy)
            #expect(try MetricFileFormat.detect(path: copy) == format, "\(name)")
        }
        #expect(MetricFileFormat.detect(head: Data("hello, world\n".utf8)) == nil)
        #expect(MetricFileFormat.detect(head: Data("{\"name\": 1}\n".utf8)) == nil)
        #expect(MetricFileFormat.detect(head: Data("<html><body></body></html>".utf8)) == nil)
    }

    @Test("Apple Health zip: the localised export entry, never __MACOSX")
    func readsZip() throws {
        let reader = AppleHealthReader(clock: HealthFixtures.clock, keepSamples: true)
        let zipped = try reader.readZip(path: HealthFixtures.path("export.zip"))
        let plain = try reader.readXML(path: HealthFixtures.path("export.xml"))
        #expect(zipped.samples == plain.samples)
        #expect(!zipped.samples.contains { $0.source == "Trap" })
        #expect(zipped.complete)
    }

    @Test("Health Auto Export: metrics in their units, the night for its wake day, workouts in seconds")
    func readsHealthAutoExport() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: HealthFixtures.path("health-auto-export.json")))
        let (samples, warnings) = try HealthAutoExportReader(clock: HealthFixtures.clock).read(data, file: "hae.json")
        #expect(samples.filter { $0.metric == .steps }.map(\.value) == [1200, 800])
        let energy = try #require(samples.first { $0.metric == .activeEnergy })
        #expect(abs(energy.value - 100) < 1e-9)
        let sleep = try #require(samples.first { $0.metric == .sleep })
        #expect(sleep.value == 435)
        #expect(HealthFixtures.clock.day(at: sleep.start) == HealthFixtures.day("2026-03-07"))
        let run = try #require(samples.first { $0.metric == .workouts })
        #expect(abs(run.value - 34.2) < 1e-9)
        #expect(run.activity == "outdoorrun")
        #expect(warnings.count == 1)
        #expect(warnings.first?.location.contains("data[2]") == true)
    }

    @Test("CSV: units converted, a bad line is a warning with its line number")
    func readsCSV() throws {
        let header = try #require(CSVHeader(line: "date,metric,value,unit,source"))
        guard
            case .sample(let energy) = header.parse(
                "2026-03-08,active_energy,1255.2,kJ,Pedometer", clock: HealthFixtures.clock)
        else { Issue.record("no sample"); return }
        #expect(abs(energy.value - 300) < 1e-9)
        #expect(HealthFixtures.clock.day(at: energy.start) == HealthFixtures.day("2026-03-08"))
        guard case .problem = header.parse("2026-03-07,steps,not-a-number,count,X", clock: HealthFixtures.clock) else {
            Issue.record("a bad value must be a problem")
            return
        }
        #expect(
            CSVHeader.fields("a,\"b, c\",\"say \"\"hi\"\"\",d", separator: ",") == ["a", "b, c", "say \"hi\"", "d"])
        #expect(CSVHeader(line: "when,what") == nil)
    }

    @Test("JSON Lines: awake is not sleep, a workout keeps its activity")
    func readsJSONLines() throws {
        let awake = JSONLineParser.parse(
            Data(
                #"{"metric": "sleep", "stage": "awake", "value": 10, "start": "2026-03-08T04:00:00-04:00", "end": "2026-03-08T04:10:00-04:00"}"#
                    .utf8),
            clock: HealthFixtures.clock)
        guard case .nothing = awake else {
            Issue.record("awake must not count")
            return
        }
        let ride = JSONLineParser.parse(
            Data(
                #"{"metric": "workout", "activity": "Cycling", "value": 0.75, "unit": "h", "start": "2026-03-08T17:00:00-04:00"}"#
                    .utf8),
            clock: HealthFixtures.clock)
        guard case .sample(let sample) = ride else {
            Issue.record("no workout")
            return
        }
        #expect(sample.metric == .workouts)
        #expect(sample.value == 45)
        #expect(sample.activity == "cycling")
        #expect(sample.source == "unknown")
    }

    @Test("dates: Apple's format, ISO 8601 with offsets and fractions, a bare day, local wall time")
    func parsesDates() throws {
        #expect(HealthDate.parse("2024-10-25 07:05:11 -0500") == .instant(1_729_857_911))
        #expect(HealthDate.parse("2024-10-25T12:05:11Z") == .instant(1_729_857_911))
        #expect(HealthDate.parse("2024-10-25T14:05:11.5+02:00") == .instant(1_729_857_911.5))
        #expect(HealthDate.parse("2024-10-25") == .day(LocalDay("2024-10-25")!))
        #expect(HealthDate.parse("2024-02-30 07:05:11 -0500") == nil)
        #expect(HealthDate.parse("yesterday") == nil)
        let local = try #require(HealthDate.parse("2026-03-08 12:00"))
        #expect(local.seconds(in: HealthFixtures.clock) == 1_772_985_600)  // noon EDT = 16:00 UTC
    }
}
