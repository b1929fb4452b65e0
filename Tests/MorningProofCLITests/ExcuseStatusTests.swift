import Foundation
import MorningProofTestSupport
import Testing

/// End-to-end: `status` never says "All done" for a habit that is not done (issue 39).
@Suite struct ExcuseStatusTests {
    @Test func statusListsASkippedHabitAndTheExcusesLeftNeverAllDone() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let now = "2026-03-02T07:00:00Z"
        #expect(try cli.run(["habit", "add", "Make bed", "--required"], now: now).status == 0)
        #expect(try cli.run(["habit", "add", "Read"], now: now).status == 0)
        #expect(try cli.run(["done", "Read"], now: now).status == 0)
        #expect(try cli.run(["skip", "Make bed"], now: now).status == 0)
        let status = try cli.run(["status"], now: now)
        #expect(status.status == 0)
        #expect(!status.stdout.contains("All done"), "\(status.stdout)")
        #expect(
            status.stdout.contains("2 of 2 settled today (1 skipped). 1 excuse left this week."), "\(status.stdout)")
        let json = try #require(try cli.json(["status"], now: now) as? [String: Any])
        #expect(json["excusesLeft"] as? Int == 1)
        #expect(json["excuseBackOn"] as? String == "2026-03-09")
        #expect(try cli.run(["done", "Make bed"], now: now).status == 0)
        #expect(try cli.run(["status"], now: now).stdout.contains("2 of 2 settled today. All done."))
    }
}
