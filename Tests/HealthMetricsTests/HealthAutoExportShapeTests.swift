import Foundation
import MorningProofCore
import TestFixtures
import Testing

@testable import HealthMetrics

/// Health Auto Export's JSON in each shape its documentation describes (Tests/Fixtures/health/
/// auto-export, written by us): the version 2 REST payload with aggregated sleep and workouts v2
/// and keys we do not read, sleep as stage intervals, the older version (workouts v1, `sleepSource`,
/// a phone-only night in bed), and a resend of the same day at 09:00 and 12:00.
/// The day totals of the same files imported by the CLI are checked in MorningProofCLITests.
@Suite("Health Auto Export shapes")
struct HealthAutoExportShapeTests {
    static let watch = "Alice’s Apple Watch"
    static let phone = "Alice’s iPhone"

    func read(_ name: String) throws -> (samples: [MetricSample], warnings: [ReadWarning]) {
        let path = HealthFixtures.path("auto-export/\(name)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try HealthAutoExportReader(clock: HealthFixtures.clock).read(data, file: name)
    }

    func day(_ sample: MetricSample) -> String { HealthFixtures.clock.day(at: sample.start).description }

    /// The samples of `metric` summed per source and day: `["2026-04-13 Alice’s iPhone": 2600]`.
    func sums(_ samples: [MetricSample], _ metric: HealthMetric) -> [String: Double] {
        samples.filter { $0.metric == metric }.reduce(into: [:]) {
            $0["\(day($1)) \($1.source)", default: 0] += $1.value
        }
    }

    @Test("version 2: qty and date in the metric's units, aggregated nights, workouts v2; other keys ignored")
    func versionTwo() throws {
        let (samples, warnings) = try read("v2-rest.json")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(
            sums(samples, .steps) == [
                "2026-04-13 \(Self.watch)": 7000, "2026-04-13 \(Self.phone)": 2600, "2026-04-14 \(Self.watch)": 3234,
            ])
        #expect(sums(samples, .activeEnergy) == ["2026-04-13 \(Self.watch)": 321, "2026-04-14 \(Self.watch)": 80])
        // Basal energy and heart rate are not ours; stateOfMind, ecg, medications... are not read.
        #expect(Set(samples.map(\.metric)) == [.steps, .activeEnergy, .sleep, .workouts])
        let nights = samples.filter { $0.metric == .sleep }
        #expect(nights.map(\.value) == [390, 435])
        #expect(nights.map(day) == ["2026-04-13", "2026-04-14"])
        #expect(nights.allSatisfy { $0.end == nil })
        #expect(nights.last?.source == "\(Self.watch)|\(Self.phone)")
        let workouts = samples.filter { $0.metric == .workouts }
        #expect(workouts.map(\.value) == [41.5, 45])  // `duration` in seconds
        #expect(workouts.map(\.activity) == ["outdoorrun", "traditionalstrengthtraining"])
        #expect(workouts.map(day) == ["2026-04-13", "2026-04-14"])
        #expect(samples.count == 6 + 3 + 2 + 2)
    }

    @Test("unaggregated sleep: Core, Deep, REM and Asleep intervals count; In Bed and Awake do not")
    func sleepStages() throws {
        let (samples, warnings) = try read("sleep-stages.json")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(samples.allSatisfy { $0.metric == .sleep && $0.end != nil })
        // Six stages of the first night, one Core and one Asleep of the second; 2 In Bed/Awake left out.
        #expect(samples.count == 8)
        let firstNight = samples.filter { $0.end! <= Date(timeIntervalSince1970: 1_776_162_000) }  // 2026-04-14 06:20 EDT
        #expect(firstNight.map(\.value) == [105, 50, 40, 150, 45, 30])
        #expect(samples.last?.source == Self.phone)
        #expect(samples.last?.value == 380)
    }

    @Test("older version: sleepSource names the night's source; a night only in bed is no sleep and no warning")
    func olderVersion() throws {
        let (samples, warnings) = try read("v1-older.json")
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(sums(samples, .steps) == ["2026-04-11 unknown": 4210, "2026-04-12 unknown": 6890])
        let energy = sums(samples, .activeEnergy)
        #expect(abs(energy["2026-04-11 unknown", default: 0] - 250) < 1e-9)
        #expect(abs(energy["2026-04-12 unknown", default: 0] - 350) < 1e-9)
        #expect(abs(sums(samples, .distance)["2026-04-11 unknown", default: 0] - 4.02336) < 1e-9)
        let nights = samples.filter { $0.metric == .sleep }
        #expect(nights.count == 1)
        #expect(nights.first?.value == 405)
        #expect(nights.first.map(day) == "2026-04-11")
        #expect(nights.first?.source == Self.watch)
    }

    @Test(
        "aggregated nights of version 2 with only inBed hours are no sleep; a night with no hours at all is a warning")
    func inBedOnly() throws {
        let json = """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2026-04-14 00:00:00 -0400", "totalSleep": 0, "asleep": 0, "core": 0, "deep": 0, "rem": 0,
               "inBed": 7.5, "inBedStart": "2026-04-13 23:00:00 -0400", "inBedEnd": "2026-04-14 06:30:00 -0400",
               "source": "Alice’s iPhone"},
              {"date": "2026-04-15 00:00:00 -0400", "totalSleep": 0, "source": "Alice’s iPhone"}
            ]}]}}
            """
        let (samples, warnings) = try HealthAutoExportReader(clock: HealthFixtures.clock).read(
            Data(json.utf8), file: "bed.json")
        #expect(samples.isEmpty)
        #expect(warnings.map(\.location) == ["metrics[0] sleep_analysis data[1]"])
    }

    @Test("an entry or workout that is not an object is a warning, a metric that is not one is ignored, and the neighbours are read")
    func oddElements() throws {
        let json = """
            {"data": {"metrics": ["oops", {"name": "step_count", "units": "count", "data": [5, null,
              {"qty": 10, "date": "2026-04-14 08:00:00 -0400", "source": 7},
              {"qty": true, "date": "2026-04-14 09:00:00 -0400"}]}],
             "workouts": [null, {"name": "Yoga", "start": "2026-04-14 18:00:00 -0400", "duration": {"qty": 0.5, "units": "hr"}}]}}
            """
        let (samples, warnings) = try HealthAutoExportReader(clock: HealthFixtures.clock).read(
            Data(json.utf8), file: "odd.json")
        #expect(samples.map(\.value) == [10, 30])
        #expect(samples.first?.source == "unknown")
        #expect(
            warnings.map(\.location) == [
                "metrics[1] step_count data[0]", "metrics[1] step_count data[1]", "metrics[1] step_count data[3]",
                "workouts[0]",
            ])
        #expect(warnings.filter { $0.message == "not an object: skipped" }.count == 3)
        for (text, reason) in [
            ("[1]", "no top-level object"), (#"{"data": 3}"#, "no \"data\" object"),
            (#"{"data": {"workouts": {}}}"#, "\"data.workouts\" is not a list"),
            (#"{"data": {"metrics": "steps"}}"#, "\"data.metrics\" is not a list"),
        ] {
            #expect(throws: MetricFileError.self) {
                do {
                    _ = try HealthAutoExportReader(clock: HealthFixtures.clock).read(Data(text.utf8), file: "x.json")
                } catch let error as MetricFileError {
                    #expect(error.code == .notMetrics && error.message.contains(reason), "\(error.message)")
                    throw error
                }
            }
        }
    }

    @Test("workouts v1: no duration means its start to its end; duration in seconds; activeEnergy objects ignored")
    func workoutsVersionOne() throws {
        let (samples, _) = try read("v1-older.json")
        let workouts = samples.filter { $0.metric == .workouts }
        #expect(workouts.map(\.value) == [18.5, 45])
        #expect(workouts.map(\.activity) == ["walking", "cycling"])
        #expect(workouts.map(day) == ["2026-04-11", "2026-04-12"])
    }

    @Test("a resend: the same day's buckets at 09:00 and at 12:00, each file read alone")
    func resend() throws {
        let (morning, morningWarnings) = try read("resend-0900.json")
        let (noon, noonWarnings) = try read("resend-1200.json")
        #expect(morningWarnings.isEmpty && noonWarnings.isEmpty)
        let both = "\(Self.watch)|\(Self.phone)"
        #expect(sums(morning, .steps) == ["2026-04-13 \(both)": 9876, "2026-04-14 \(both)": 3200])
        #expect(sums(noon, .steps) == ["2026-04-13 \(both)": 9876, "2026-04-14 \(both)": 7450])
        #expect(sums(morning, .activeEnergy)["2026-04-14 \(Self.watch)"] == 150)
        #expect(sums(noon, .activeEnergy)["2026-04-14 \(Self.watch)"] == 290)
        // Yesterday's bucket, the night and the workout are the same samples in both files.
        let unchanged = { (samples: [MetricSample]) in
            Set(
                samples.filter { $0.metric != .steps && $0.metric != .activeEnergy || day($0) == "2026-04-13" }.map(
                    \.dedupKey))
        }
        #expect(unchanged(morning) == unchanged(noon))
        #expect(noon.first { $0.metric == .sleep }?.value == 420)
        #expect(noon.first { $0.metric == .workouts }?.value == 30)
    }
}
