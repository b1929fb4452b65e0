import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore

@Suite("Apple Health export reader")
struct AppleHealthReaderTests {
    @Test("reads export.xml despite the iOS 16 DTD whose ATTLIST is never closed")
    func readsExportWithBrokenDTD() throws {
        let export = try AppleHealthReader(clock: HealthFixtures.clock, keepSamples: true).readXML(
            path: HealthFixtures.path("export.xml"))
        #expect(export.complete)
        let steps = export.samples.filter { $0.metric == .steps }
        // 7 readable top-level step records; the one inside <Correlation> is not counted again.
        #expect(steps.count == 7)
        let total: Double = steps.reduce(0) { $0 + $1.value }
        #expect(total == 11_850)
        #expect(Set(steps.map(\.source)) == ["Alice’s iPhone", "Alice’s Apple Watch"])
        // "oops" is not a number: a warning with its byte offset, and the rest is read.
        #expect(export.warnings.count == 1)
        #expect(export.warnings.first?.location.hasPrefix("byte ") == true)
        let workouts = export.samples.filter { $0.metric == .workouts }
        #expect(workouts.map(\.activity) == ["running", "yoga"])
        #expect(workouts.map(\.value) == [34.2, 30])
        let sleep = export.samples.filter { $0.metric == .sleep }
        #expect(sleep.count == 5)  // InBed and Awake are not sleep
    }

    @Test("converts kJ, Cal and miles to kcal and km")
    func convertsUnits() throws {
        let export = try AppleHealthReader(clock: HealthFixtures.clock, keepSamples: true).readXML(
            path: HealthFixtures.path("export.xml"))
        let energy = export.samples.filter { $0.metric == .activeEnergy && $0.source == "Alice’s Apple Watch" }
        #expect(abs(energy.reduce(0) { $0 + $1.value } - (1046 / 4.184 + 150)) < 1e-9)
        let distance = export.samples.filter { $0.metric == .distance && $0.source == "Alice’s Apple Watch" }
        #expect(abs(distance[0].value - 2.5 * 1.609344) < 1e-9)
    }
}

@Suite("Apple Health export in parts")
struct ExportPartsTests {
    @Test("scanning in parts on several threads gives what one pass gives")
    func partsMatchOnePass() throws {
        var reader = AppleHealthReader(clock: HealthFixtures.clock, keepSamples: true)
        let whole = try reader.readXML(path: HealthFixtures.path("export.xml"))
        reader.parallelThreshold = 0
        reader.parallelParts = 4
        let fd = open(HealthFixtures.path("export.xml"), O_RDONLY)
        defer { close(fd) }
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: HealthFixtures.path("export.xml"))).count)
        let ranges = AppleHealthReader.parts(fd: fd, size: size, count: 4)
        #expect(ranges.count == 4)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == size)
        let split = try reader.readXML(path: HealthFixtures.path("export.xml"))
        #expect(split.batch.exportAggregates == whole.batch.exportAggregates)
        let order: (MetricIntervalRow, MetricIntervalRow) -> Bool = { ($0.start, $0.source) < ($1.start, $1.source) }
        #expect(split.batch.intervals.sorted(by: order) == whole.batch.intervals.sorted(by: order))
        #expect(split.recordsRead == whole.recordsRead)
        #expect(split.warningCount == whole.warningCount)
        #expect(split.complete && split.batch.exportDate == whole.batch.exportDate)
    }
}
