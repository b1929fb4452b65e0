import Foundation
import TestFixtures
import Testing

@testable import HealthMetrics
@testable import MorningProofCore
@testable import MorningProofService
import MorningProofStoreContract
@testable import MorningProofSQLite

/// Our import checked against answers that `scripts/make-health-export` computes by itself, in
/// Python, from the records it writes: steps, sleep (the night rule) and workouts, day by day.
@Suite("Generated export against its answers")
struct GeneratedExportTests {
    /// Runs the generator; nil (with a recorded issue) when python3 cannot run it.
    func generate(into folder: URL) throws -> (export: String, answers: String)? {
        let export = folder.appendingPathComponent("export.xml").path
        let answers = folder.appendingPathComponent("answers.json").path
        let script = Repository.path("scripts/make-health-export")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--size-mb", "10", "--answers", answers, export]
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            Issue.record("cannot run python3 \(script): \(error) (scripts/bootstrap installs python3)")
            return nil
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let hint = process.terminationStatus == 127 ? " (python3 missing? scripts/bootstrap installs it)" : ""
            Issue.record("python3 \(script) exited \(process.terminationStatus)\(hint): \(message)")
            return nil
        }
        return (export, answers)
    }

    struct Answers: Decodable {
        struct Day: Decodable {
            var steps: Double?
            var sleepMinutes: Double?
            var workouts: Int?
        }
        var zone: String
        var days: [String: Day]
    }

    @Test("every day's steps, sleep and workouts match the generator's own answers")
    func matchesAnswers() async throws {
        let folder = try HealthFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let files = try generate(into: folder) else { return }
        let answers = try JSONDecoder().decode(
            Answers.self, from: Data(contentsOf: URL(fileURLWithPath: files.answers)))
        let clock = try #require(DayClock(zoneIdentifier: answers.zone))
        let database = try AppDatabase.inMemory()
        let report = try await MetricImporter(database: database, clock: clock).importFile(files.export)
        #expect(report.warnings.isEmpty, "\(report.warnings)")

        let expected = answers.days.map { (HealthFixtures.day($0.key), $0.value) }.sorted { $0.0 < $1.0 }
        #expect(expected.count >= 14)
        let first = try #require(expected.first?.0), last = try #require(expected.last?.0)
        #expect(expected.contains { $0.1.sleepMinutes != nil && $0.1.workouts != nil })
        let stored = try await database.metricDays(from: first.adding(days: -3), to: last.adding(days: 3))
        for (day, answer) in expected {
            let got = stored[day] ?? [:]
            #expect(got["steps"] == answer.steps, "steps on \(day)")
            #expect(close(got["sleep"], answer.sleepMinutes), "sleep on \(day): \(got["sleep"] ?? 0)")
            #expect(got["workouts"] == answer.workouts.map(Double.init), "workouts on \(day)")
            // One day asked alone gives the same night totals as a range.
            let alone = try await database.metricValue(metric: "sleep", day: day)
            #expect(close(alone, answer.sleepMinutes), "sleep on \(day) asked alone")
        }
        let extra = Set(stored.keys).subtracting(expected.map(\.0))
        #expect(extra.allSatisfy { stored[$0]?["sleep"] == nil && stored[$0]?["steps"] == nil }, "\(extra)")
    }

    /// Equal within 0.01 minute (the answers are not rounded; our sums may differ in the last bits).
    func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 0.01
    }
}
