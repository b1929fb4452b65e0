import Foundation
import Testing

@testable import MorningProofCore

@Suite("Gate unlock rules")
struct GateUnlockRuleTests {
    let monday = day("2026-03-02")
    let at = instant("2026-03-02T07:00:00Z")

    @Test("one unlock a day, at most the limit in any 7 days, and when the next one is possible")
    func unlockRule() {
        let first = GateUnlock(day: monday, at: at, reason: "flight")
        let thursday = GateUnlock(day: monday.adding(days: 3), at: at, reason: "ill")
        #expect(GateUnlockOutcome.of(unlocking: monday, week: [], limit: 1) == .unlocked(remaining: 0))
        #expect(GateUnlockOutcome.of(unlocking: monday, week: [first], limit: 1) == .alreadyUnlocked(first))
        #expect(
            GateUnlockOutcome.of(unlocking: monday.adding(days: 6), week: [first], limit: 1)
                == .limitReached(used: [first], nextDay: monday.adding(days: 7)))
        #expect(
            GateUnlockOutcome.of(unlocking: monday.adding(days: 5), week: [first, thursday], limit: 2)
                == .limitReached(used: [first, thursday], nextDay: monday.adding(days: 7)))
        #expect(
            GateUnlockOutcome.of(unlocking: monday.adding(days: 5), week: [first], limit: 3) == .unlocked(remaining: 1))
        #expect(GateUnlockOutcome.of(unlocking: monday, week: [], limit: 0) == .limitReached(used: [], nextDay: nil))
        #expect(GateUnlock.windowStart(endingOn: monday.adding(days: 6)) == monday)
        #expect((try? GateUnlock.checkReason("  on call ")) == "on call")
        #expect(throws: MorningProofError.self) { try GateUnlock.checkReason("a\u{1B}b") }
    }

    @Test("the gate waits for required habits, not for a required check-in habit")
    func gatedHabits() {
        let bed = Habit(name: "Make bed", required: true, createdDay: monday, createdAt: at)
        let read = Habit(name: "Read", createdDay: monday, createdAt: at)
        let checkin = Habit(name: "Check-in", kind: .checkin, required: true, createdDay: monday, createdAt: at)
        #expect(GateDecision.gatedHabits([bed, read, checkin]) == [bed])
    }
}
