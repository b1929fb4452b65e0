import Foundation
import MorningProofTestSupport
import Testing

/// `check`, `watch` and `notifications list` as cron, systemd and a person run them.
@Suite struct CheckCommandTests {
    static let morning = "2026-03-08T07:00:00Z"
    static let evening = "2026-03-08T19:00:00Z"

    /// A database with a Walk goal and a watched CSV of today's steps.
    func walkWithSteps(_ cli: CLI, steps: Int = 8412) throws {
        #expect(
            try cli.run(["habit", "add", "Walk", "--metric", "steps", "--at-least", "8000"], now: Self.morning).status
                == 0)
        let csv = cli.directory.appendingPathComponent("steps.csv")
        try "date,metric,value\n2026-03-08,steps,\(steps)\n".write(to: csv, atomically: true, encoding: .utf8)
        let added = try cli.run(["source", "add", csv.path], now: Self.morning)
        #expect(added.status == 0, "source add: \(added.stderr)")
    }

    /// Writes an executable hook script into the test's directory.
    func hook(_ cli: CLI, _ body: String) throws -> String {
        let path = cli.directory.appendingPathComponent("hook").path
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        #expect(try cli.run(["config", "set", "notify.hook", path]).status == 0)
        return path
    }

    func lines(_ cli: CLI, _ name: String) -> [String] {
        let text = (try? String(contentsOf: cli.directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    @Test func checkCompletesTheGoalAndNotifiesOnce() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try walkWithSteps(cli)
        let first = try cli.run(["check"], now: Self.evening)
        #expect(first.status == 0)
        #expect(first.stdout == "goal.met 2026-03-08 Walk: 8,412 steps today, goal at least 8,000 steps met.\n")
        let second = try cli.run(["check"], now: "2026-03-08T19:05:00Z")
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty && second.stderr.isEmpty, "check is silent when nothing happened")
        let show = try cli.run(["habit", "show", "walk"], now: Self.evening)
        #expect(show.stdout.contains("today: done"))
        let list = try cli.json(["notifications", "list"], now: Self.evening) as? [String: Any]
        let items = try #require(list?["notifications"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items.first?["event"] as? String == "goal.met")
        #expect(items.first?["state"] as? String == "delivered")
    }

    @Test func twoChecksStartedTogetherDeliverOneNotification() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try walkWithSteps(cli)
        _ = try hook(cli, "cat >> \"\(cli.directory.path)/delivered\"")
        let processes = try (0..<2).map { _ in try start(cli, ["check", "--json"], now: Self.evening) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0])
        let delivered = lines(cli, "delivered")
        #expect(delivered.count == 1)
        #expect(delivered.first?.contains("\"event\":\"goal.met\"") == true)
    }

    @Test func aFailingHookStillPrintsTheLineAndIsNotRetriedWithinItsBackOff() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try walkWithSteps(cli)
        _ = try hook(
            cli,
            """
            echo "$MORNINGPROOF_EVENT $MORNINGPROOF_HABIT $MORNINGPROOF_VALUE" >> "\(cli.directory.path)/attempts"
            echo "offline" >&2; exit 1
            """)
        let failed = try cli.run(["check"], now: Self.evening)
        #expect(failed.status == 0)
        #expect(failed.stdout == "goal.met 2026-03-08 Walk: 8,412 steps today, goal at least 8,000 steps met.\n")
        #expect(failed.stderr.contains("hook exited with status 1: offline (attempt 1 of 5; next attempt in 1 min)"))
        let listed = try cli.run(["notifications", "list"], now: Self.evening)
        #expect(listed.stdout.contains("failed (1 attempt)"))
        // The next check, 30 s later on the pass's clock (`--now`: issue 39, "One clock"), within the
        // minute of back-off, leaves the hook alone and prints nothing again.
        let again = try cli.run(["check"], now: "2026-03-08T19:00:30Z")
        #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty)
        #expect(lines(cli, "attempts") == ["goal.met Walk 8412"])
    }

    @Test func badGoalsAreUsageErrors() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let unknown = try cli.run(
            ["habit", "add", "Screen", "--metric", "screen", "--at-most", "2h"], now: Self.morning)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown metric \"screen\" (metrics: steps, sleep, workouts"))
        let badUnit = try cli.run(["habit", "add", "Walk", "--metric", "steps", "--at-least", "7h"], now: Self.morning)
        #expect(badUnit.status == 64)
        let wrongKind = try cli.run(
            ["habit", "add", "Walk", "--kind", "photo", "--metric", "steps", "--at-least", "8000"], now: Self.morning)
        #expect(wrongKind.status == 64)
        #expect(try cli.run(["habit", "list"]).stdout.contains("No habits"), "nothing was stored")
        let sleep = try cli.run(
            ["habit", "add", "Sleep", "--metric", "sleep", "--at-least", "7h30m"], now: Self.morning)
        #expect(sleep.stdout.contains("metric, at least 7 h 30 min"))
        let edited = try cli.run(["habit", "edit", "sleep", "--at-least", "8h"], now: Self.morning)
        #expect(edited.stdout.contains("at least 8 h"))
    }

    @Test func watchStopsCleanlyOnSIGTERM() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try walkWithSteps(cli)
        let process = try start(cli, ["watch", "--interval", "1h"], now: Self.evening)
        let log = cli.directory.appendingPathComponent("stderr-\(process.processIdentifier)")
        let started = wait(upTo: 120) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("first pass done")
        }
        #expect(started, "watch logged its first pass")
        kill(process.processIdentifier, SIGTERM)
        let exited = wait(upTo: 30) { !process.isRunning }
        if !exited { process.terminate() }
        #expect(exited)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let stdout =
            (try? String(
                contentsOf: cli.directory.appendingPathComponent("stdout-\(process.processIdentifier)"), encoding: .utf8
            )) ?? ""
        #expect(stdout.contains("goal.met 2026-03-08 Walk"))
    }

    /// Starts the binary without waiting; its output goes to files named after its pid.
    func start(_ cli: CLI, _ arguments: [String], now: String) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments + ["--db", cli.database.path, "--now", now]
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["TZ"] = "UTC"
        env.removeValue(forKey: "MORNINGPROOF_NOW")
        env.removeValue(forKey: "MORNINGPROOF_DB")
        process.environment = env
        let out = cli.directory.appendingPathComponent("out-\(UUID().uuidString)")
        let err = cli.directory.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try FileManager.default.moveItem(
            at: out, to: cli.directory.appendingPathComponent("stdout-\(process.processIdentifier)"))
        try FileManager.default.moveItem(
            at: err, to: cli.directory.appendingPathComponent("stderr-\(process.processIdentifier)"))
        return process
    }

    /// Polls `condition` until it holds or `seconds` pass (a deadline against hanging, not a timing check).
    func wait(upTo seconds: Double, _ condition: () -> Bool) -> Bool {
        LiveProcess.eventually(within: seconds, condition)
    }
}

/// `metrics import` judges the goals of the days it changed, as `check` does, so that a night
/// imported two days late still completes its habit; the `goal.met` of today it queues is
/// delivered once, by the next `check`.
@Suite struct ImportJudgesGoalsTests {
    @Test func aLateImportCompletesThePastDayAndCheckDeliversTodaysGoalOnce() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["config", "set", "timezone", "America/Chicago"]).status == 0)
        let created = "2026-02-20T08:00:00-06:00"
        #expect(try cli.run(["habit", "add", "Sleep", "--metric", "sleep", "--at-least", "7h45m"], now: created).status == 0)
        #expect(try cli.run(["habit", "add", "Walk", "--metric", "steps", "--at-least", "8000"], now: created).status == 0)
        let file = cli.directory.appendingPathComponent("week.csv")
        try """
        start,end,metric,value,unit,source
        2026-02-26T22:30:00-06:00,2026-02-27T06:30:00-06:00,sleep,480,min,Ring
        2026-03-01T08:00:00-06:00,2026-03-01T09:00:00-06:00,steps,8412,,Ring
        """.write(to: file, atomically: true, encoding: .utf8)
        let imported = try cli.run(["metrics", "import", file.path], now: "2026-03-01T12:00:00-06:00")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Completed Sleep on 2026-02-27 (goal met)."))
        #expect(imported.stdout.contains("Completed Walk on 2026-03-01 (goal met)."))
        // The import delivered nothing: the event waits for the next check, which delivers it once.
        let waiting = try cli.run(["notifications", "list"], now: "2026-03-01T12:01:00-06:00")
        #expect(waiting.stdout.contains("goal.met  Walk  claimed (queued for the next check)"), "\(waiting.stdout)")
        let check = try cli.run(["check"], now: "2026-03-01T12:05:00-06:00")
        #expect(check.stdout.components(separatedBy: "goal.met 2026-03-01").count == 2, "\(check.stdout)")
        #expect(!check.stdout.contains("2026-02-27"))
        let again = try cli.run(["check"], now: "2026-03-01T12:10:00-06:00")
        #expect(!again.stdout.contains("goal.met"))
        // Days completed at once are one line per habit.
        let more = cli.directory.appendingPathComponent("more.csv")
        try "date,metric,value\n2026-02-21,steps,9000\n2026-02-22,steps,9100\n2026-02-24,steps,9200\n"
            .write(to: more, atomically: true, encoding: .utf8)
        let three = try cli.run(["metrics", "import", more.path], now: "2026-03-01T12:12:00-06:00")
        #expect(three.stdout.contains("Completed Walk on 3 days from 2026-02-21 to 2026-02-24 (goal met)."), "\(three.stdout)")
        let json = try cli.run(["metrics", "import", file.path, "--json"], now: "2026-03-01T12:15:00-06:00")
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((summary?["completed"] as? [Any])?.isEmpty == true)
    }
}
