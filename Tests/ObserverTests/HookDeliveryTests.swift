import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Observer
import Testing
import MorningProofService

/// A temporary directory holding hook scripts and what they write.
struct HookFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("morningproof-hooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes an executable script named `name`.
    func script(_ name: String, _ body: String) throws -> String {
        let path = path(name)
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func lines(_ name: String) -> [String] {
        ((try? String(contentsOfFile: path(name), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite struct HookDeliveryTests {
    @Test func theHookGetsTheEventOnStdinAndInItsEnvironment() async throws {
        let f = try ObserverFixture()
        let folder = try HookFolder()
        defer { folder.remove() }
        let hook = try folder.script(
            "hook",
            """
            cat > "\(folder.path("stdin"))"
            printf '%s|%s|%s|%s|%s|%s\\n' "$MORNINGPROOF_EVENT" "$MORNINGPROOF_HABIT" "$MORNINGPROOF_DAY" \
              "$MORNINGPROOF_VALUE" "$MORNINGPROOF_TARGET" "$MORNINGPROOF_MESSAGE" >> "\(folder.path("env"))"
            """)
        _ = try await f.addHabit("Walk; rm -rf $HOME", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today, 8412)
        let report = try await f.pass(hook: HookRunner(path: hook)).run(at: f.at(18))
        #expect(report.failures.isEmpty)
        #expect(
            folder.lines("env") == [
                "goal.met|Walk; rm -rf $HOME|2026-03-10|8412|8000|Walk; rm -rf $HOME: 8,412 steps today, goal at least 8,000 steps met."
            ])
        let event = try #require(NotificationEvent.decode(folder.lines("stdin").first ?? ""))
        #expect(event.habit == "Walk; rm -rf $HOME" && event.value == 8412 && event.event == .goalMet)
    }

    @Test func aFailingHookIsRetriedAndSucceedsOnce() async throws {
        let f = try ObserverFixture()
        let folder = try HookFolder()
        defer { folder.remove() }
        // Fails the first time (leaving a state file), succeeds after.
        let hook = try folder.script(
            "hook",
            """
            if [ ! -e "\(folder.path("state"))" ]; then touch "\(folder.path("state"))"; echo "no network" >&2; exit 1; fi
            echo "$MORNINGPROOF_EVENT $MORNINGPROOF_HABIT" >> "\(folder.path("delivered"))"
            """)
        _ = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today, 9000)
        let runner = HookRunner(path: hook)

        // Real time as the back-off sees it: five minutes pass between the first two passes.
        let first = try await f.pass(hook: runner, realTime: { f.at(18) }).run(at: f.at(18))
        #expect(first.delivered.isEmpty)
        #expect(first.failures.count == 1)
        var stored = try await #require(try f.database.notifications(since: f.today).first)
        #expect(stored.state == .failed && stored.attempts == 1)
        #expect(stored.lastError?.contains("hook exited with status 1: no network") == true)

        let second = try await f.pass(hook: runner, realTime: { f.at(18, 5) }).run(at: f.at(18, 5))
        #expect(second.delivered.map(\.habit) == ["Walk"])
        await #expect(try f.pass(hook: runner, realTime: { f.at(18, 10) }).run(at: f.at(18, 10)).isQuiet)
        #expect(folder.lines("delivered") == ["goal.met Walk"])
        stored = try await #require(try f.database.notifications(since: f.today).first)
        #expect(stored.state == .delivered && stored.attempts == 2)
    }

    @Test func aHookPastItsTimeoutIsKilled() async throws {
        let f = try ObserverFixture()
        let folder = try HookFolder()
        defer { folder.remove() }
        let hook = try folder.script("hook", "echo $$ > \"\(folder.path("pid"))\"\nexec sleep 60")
        _ = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today, 9000)

        let report = try await f.pass(hook: HookRunner(path: hook, timeout: 0.5)).run(at: f.at(18))
        #expect(report.delivered.isEmpty)
        #expect(report.failures.first?.contains("timed out") == true)
        let pid = try #require(folder.lines("pid").first.flatMap { Int32($0) })
        #expect(kill(pid, 0) == -1, "the hook's process is gone")
        let stored = try await #require(try f.database.notifications(since: f.today).first)
        #expect(stored.state == .failed)
    }

    @Test func aMissingHookIsAFailedAttemptNotACrash() async throws {
        let f = try ObserverFixture()
        _ = try await f.addHabit("Walk", goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        f.totals.set("steps", f.today, 9000)
        let report = try await f.pass(hook: HookRunner(path: "/nonexistent/hook")).run(at: f.at(18))
        #expect(report.failures.first?.contains("hook /nonexistent/hook does not exist (deleted or moved?)") == true)
    }
}
