import Foundation
import Testing

@testable import MorningProofCore

/// One range for every goal target, and listings that survive a target stored before it.
@Suite struct GoalTargetRangeTests {
    @Test(arguments: ["9999999999999999999", "200001", "1e30", "-5"])
    func hugeStepTargetsAreRefusedNamingTheRange(text: String) {
        do {
            _ = try GoalTarget.parse(text, for: .steps)
            Issue.record("\(text) was accepted")
        } catch let error as MorningProofError {
            #expect(error.kind == .usage)
            #expect(error.message.contains("0 to 200,000 steps"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theRangeIsTheDaysCeiling() throws {
        #expect(try GoalTarget.parse("200000", for: .steps) == 200_000)
        #expect(try GoalTarget.parse("24h", for: .sleep) == 1_440)
        #expect(throws: MorningProofError.self) { try GoalTarget.parse("25h", for: .sleep) }
        #expect(throws: MorningProofError.self) { try GoalTarget.check(-1, for: .distance) }
        #expect(throws: MorningProofError.self) { try GoalTarget.check(.infinity, for: .activeEnergy) }
        #expect(throws: MorningProofError.self) { try GoalTarget.check(.nan, for: .workouts) }
    }

    @Test func aStoredHugeTargetStillReads() {
        let goal = MetricGoal(metric: "steps", comparison: .atLeast, target: 1e19)
        #expect(GoalTarget.format(1e19, for: .steps) == "1e+19 steps")
        #expect(GoalTarget.format(-1e300, for: .sleep) == "-1e+300 min")
        #expect(goal.summary == "at least 1e+19 steps (out of range: edit it)")
        #expect(MetricGoal(metric: "steps", comparison: .atLeast, target: 8000).summary == "at least 8,000 steps")
    }
}
