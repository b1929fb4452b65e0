import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Observer
import Testing

/// Impossible values read from a real watched file never meet a goal.
@Suite struct ImpossibleValueGoalTests {
    @Test func impossibleStepsNeverMeetAGoal() async throws {
        let f = try ObserverFixture()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-goal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let walk = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        let path = folder.appendingPathComponent("steps.csv").path
        // One record over the ceiling (refused as read); two plausible ones making an impossible day.
        try """
        start,metric,value,source
        2026-03-10T09:00:00-04:00,steps,1e308,Phone
        2026-03-10T09:10:00-04:00,steps,-500,Phone
        2026-03-10T10:00:00-04:00,steps,150000,Glitchy
        2026-03-10T11:00:00-04:00,steps,150000,Glitchy
        2026-03-10T11:30:00-04:00,steps,4000,Phone

        """.write(toFile: path, atomically: false, encoding: .utf8)
        _ = try await f.database.addMetricSource(path)
        let pass = CheckPass(
            database: f.database, clock: f.clock, sources: .live(database: f.database, clock: f.clock), hook: nil)
        let report = try await pass.run(at: f.at(18))
        #expect(report.completed.isEmpty)
        await #expect(try f.database.entry(habitID: walk.id, day: f.today) == nil)
        #expect(report.scan.warnings.count == 3)
        #expect(report.scan.warnings.allSatisfy { $0.contains(path) })
        await #expect(try f.database.metricValue(metric: "steps", day: f.today) == 4000)
    }
}
