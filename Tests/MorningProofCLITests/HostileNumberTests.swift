import Foundation
import Testing

/// Numbers too big and the calendar's edges, through the built binary: exit 64 (or a warning for
/// a row of a file), a clear message, nothing stored, never a crash.
@Suite struct HostileNumberTests {
    let now = "2026-03-10T08:00:00Z"

    func habitNames(_ cli: CLI) throws -> [String] {
        let list = try cli.json(["habit", "list"], now: now) as? [[String: Any]] ?? []
        return list.compactMap { $0["name"] as? String }
    }

    @Test(arguments: [["--at-least", "9999999999999999999"], ["--at-most=-5"], ["--at-least", "300000"]])
    func hugeOrNegativeGoalTargetsAreRefused(target: [String]) throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["habit", "add", "S", "--metric", "steps"] + target, now: now)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("0 to 200,000 steps"), "\(result.stderr)")
        #expect(try habitNames(cli).isEmpty)
    }

    @Test func aStoredHugeTargetStillLists() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "S", "--metric", "steps", "--at-least", "8000"], now: now).status == 0)
        // As an older version stored it.
        let sql = Process()
        sql.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sql.arguments = [cli.database.path, "UPDATE habit SET goalTarget = 1e19"]
        try sql.run()
        sql.waitUntilExit()
        try #require(sql.terminationStatus == 0, "no sqlite3 to write the old row")
        for arguments in [["habit", "list"], ["status"], ["report"], ["habit", "list", "--json"], ["report", "--json"]] {
            let result = try cli.run(arguments, now: now)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(try cli.run(["habit", "list"], now: now).stdout.contains("1e+19 steps (out of range: edit it)"))
    }

    @Test func loopCSVAndHarshNumbersTooBigAreWarnings() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let loop = cli.directory.appendingPathComponent("loop")
        try FileManager.default.createDirectory(
            at: loop.appendingPathComponent("001 S"), withIntermediateDirectories: true)
        try Data(
            """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,S,NUMERICAL,,,1,1,#000,steps,AT_LEAST,9999999999999999999,false

            """.utf8
        ).write(to: loop.appendingPathComponent("Habits.csv"))
        try Data("Date,Value\n2026-03-01,9000000\n".utf8).write(to: loop.appendingPathComponent("001 S/Checkmarks.csv"))
        let imported = try cli.run(["import", "loop", loop.path, "--apply"], now: now)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("Habits.csv:2: \"S\": target 1e+19 steps"), "\(imported.stderr)")
        #expect(try habitNames(cli).isEmpty)

        let harsh = cli.directory.appendingPathComponent("harsh")
        try FileManager.default.createDirectory(at: harsh, withIntermediateDirectories: true)
        try Data("Run: 2000000000000000000w\n".utf8).write(to: harsh.appendingPathComponent("habits"))
        try Data("2026-03-01 : Run : y\n".utf8).write(to: harsh.appendingPathComponent("log"))
        let result = try cli.run(["import", "harsh", harsh.path, "--apply"], now: now)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("habits:1: \"Run\": frequency \"2000000000000000000w\""), "\(result.stderr)")
        #expect(try habitNames(cli).isEmpty)
    }

    @Test(arguments: [
        ["quote", "show", "--at", "0001-01-01T00:00:10Z"],
        ["gate", "--now", "0001-01-01T00:00:00Z"],
        ["habit", "add", "X", "--now", "9999-12-31T23:59:59-12:00"],
        ["checkin", "setup", "--now", "9999-12-31T23:59:59-12:00"],
        ["gate", "--now", "9999-12-31T23:59:59-12:00"],
        ["quote", "show", "--now", "9999-12-31T23:59:59-12:00"],
        ["done", "Run", "--date", "0000-12-31"],
        ["done", "Run", "--date", "10000-01-01"],
        ["done", "Run", "--date", "-9223372036854775807"],
    ])
    func theCalendarsEdgesAreRefused(arguments: [String]) throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Run"], now: now).status == 0)
        let usesOwnNow = arguments.contains("--now")
        let result = try cli.run(arguments, now: usesOwnNow ? nil : now)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("morningproof: "), "\(arguments): \(result.stderr)")
        #expect(try habitNames(cli) == ["Run"])
        let environment = try cli.run(["status"], environment: ["MORNINGPROOF_NOW": "0001-01-01T00:00:00Z"])
        #expect(environment.status == 64)
        #expect(environment.stderr.contains("MORNINGPROOF_NOW 0001-01-01T00:00:00Z is outside"))
    }

    @Test func aWatchIntervalTooLongIsRefused() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["watch", "--interval", "99999999999999999999h"], now: now)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("1s to 24h"), "\(result.stderr)")
    }

    @Test func samoasMissingDayIsNoDay() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["config", "set", "timezone", "Pacific/Apia"], now: "2011-12-25T08:00:00+14:00").status == 0)
        #expect(try cli.run(["habit", "add", "Run"], now: "2011-12-25T08:00:00-10:00").status == 0)
        let at = "2012-01-01T08:00:00+14:00"
        for day in ["2011-12-25", "2011-12-26", "2011-12-27", "2011-12-28", "2011-12-29", "2011-12-31"] {
            let done = try cli.run(["done", "Run", "--date", day], now: at)
            #expect(done.status == 0, "\(day): \(done.stderr)")
        }
        let missing = try cli.run(["done", "Run", "--date", "2011-12-30"], now: at)
        #expect(missing.status == 64)
        #expect(missing.stderr == "morningproof: 2011-12-30 did not happen in Pacific/Apia\n")
        let status = try cli.json(["status"], now: "2011-12-31T20:00:00+14:00")
        let habits = (status as? [String: Any])?["habits"] as? [[String: Any]] ?? status as? [[String: Any]] ?? []
        let run = try #require(habits.first)
        #expect(run["currentStreak"] as? Int == 6, "\(status)")
        #expect(run["longestStreak"] as? Int == 6, "\(status)")
    }
}
