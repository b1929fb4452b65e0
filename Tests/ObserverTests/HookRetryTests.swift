import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Observer
import Testing

/// A failing hook's retries: spaced out, and never at the cost of the event line on stdout.
@Suite struct HookRetryTests {
    /// A Walk goal met today, and a hook that always fails.
    func walkWithAFailingHook() async throws -> (ObserverFixture, HookFixture) {
        let f = try ObserverFixture()
        _ = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today, 9000)
        return (f, try HookFixture("fails"))
    }

    @Test("passes every second try a failing hook 5 times, 1, 2, 4 and 8 minutes apart, not 5 times in 5 s")
    func backOff() async throws {
        let (f, hook) = try await walkWithAFailingHook()
        defer { hook.remove() }
        let start = f.at(18)
        var attemptedAt: [Int] = []
        for second in 0...1000 {
            let now = start.addingTimeInterval(Double(second))
            let report = try await f.pass(hook: HookRunner(path: hook.path, timeout: 2), realTime: { now }).run(at: now)
            if !report.failures.isEmpty { attemptedAt.append(second) }
        }
        #expect(attemptedAt == [0, 60, 180, 420, 900])
        #expect(hook.lines("attempts").count == 5)
        let stored = try await #require(try f.database.notifications(since: f.today).first)
        #expect(stored.state == .failed && stored.attempts == 5)
        #expect(stored.lastError == "hook exited with status 1: no network (attempt 5 of 5)")
    }

    @Test("the event line is printed at the first attempt although the hook fails, and not again at a retry")
    func lineDespiteFailure() async throws {
        let (f, hook) = try await walkWithAFailingHook()
        defer { hook.remove() }
        let runner = HookRunner(path: hook.path, timeout: 2)
        var printed: [String] = []
        let first = try await f.pass(hook: runner, realTime: { f.at(18) }).run(at: f.at(18)) { printed.append($0.line) }
        #expect(printed == ["goal.met 2026-03-10 Walk: 9,000 steps today, goal at least 8,000 steps met."])
        #expect(first.delivered.isEmpty)
        #expect(
            first.failures == [
                "goal.met for Walk on 2026-03-10: hook exited with status 1: no network (attempt 1 of 5; next attempt in 1 min)"
            ])
        let retry = try await f.pass(hook: runner, realTime: { f.at(18, 1) }).run(at: f.at(18, 1)) { printed.append($0.line) }
        #expect(printed.count == 1, "a retry is the hook's alone")
        #expect(retry.failures.first?.hasSuffix("(attempt 2 of 5; next attempt in 2 min)") == true)
        #expect(hook.lines("attempts").count == 2)
    }
}
