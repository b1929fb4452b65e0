import Foundation
import Testing

/// Bad input: one clear line on stderr, exit 64, nothing stored.
@Suite struct BadInputTests {
    let now = "2026-03-10T08:00:00Z"

    func prepared() throws -> CLI {
        let cli = try CLI()
        #expect(try cli.run(["habit", "add", "Make bed"], now: "2026-03-01T08:00:00Z").status == 0)
        #expect(try cli.run(["habit", "add", "Meditate"], now: "2026-03-01T08:00:00Z").status == 0)
        return cli
    }

    func expectRefused(_ cli: CLI, _ arguments: [String], saying text: String) throws {
        let before = try cli.run(["report", "--format", "json"], now: now).stdout
        let settings = try cli.run(["config", "show", "--json"], now: now).stdout
        let result = try cli.run(arguments, now: now)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try cli.run(["report", "--format", "json"], now: now).stdout == before)
        #expect(try cli.run(["config", "show", "--json"], now: now).stdout == settings)
    }

    @Test func unknownAndAmbiguousHabits() throws {
        let cli = try prepared()
        defer { cli.remove() }
        try expectRefused(cli, ["done", "run"], saying: "no habit named \"run\"")
        try expectRefused(cli, ["done", "m"], saying: "ambiguous")
        try expectRefused(cli, ["skip", "x"], saying: "no habit named")
    }

    @Test func badDates() throws {
        let cli = try prepared()
        defer { cli.remove() }
        try expectRefused(cli, ["done", "make", "--date", "2026-02-30"], saying: "bad date")
        try expectRefused(cli, ["done", "make", "--date", "soon"], saying: "bad date")
        try expectRefused(cli, ["done", "make", "--date", "2026-03-11"], saying: "in the future")
        try expectRefused(cli, ["done", "make", "--date", "2026-02-28"], saying: "did not exist yet")
        try expectRefused(cli, ["done", "make", "--date", "-30"], saying: "did not exist yet")
    }

    @Test func badZonesWithSuggestions() throws {
        let cli = try prepared()
        defer { cli.remove() }
        try expectRefused(cli, ["config", "set", "timezone", "Europe/Londn"], saying: "did you mean Europe/London?")
        try expectRefused(cli, ["config", "set", "timezone", "UTC+3"], saying: "unknown time zone")
        try expectRefused(cli, ["config", "set", "timezone", "EST"], saying: "did you mean America/New_York?")
        try expectRefused(cli, ["config", "set", "day-start", "13:00"], saying: #"bad day-start "13:00": use HH:MM from 00:00 to 12:00"#)
    }

    @Test func badInstants() throws {
        let cli = try prepared()
        defer { cli.remove() }
        for text in ["2026-03-10 08:00", "2026-03-10T08:00:00", "tomorrow"] {
            let flag = try cli.run(["done", "make", "--now", text])
            #expect(flag.status == 64)
            #expect(flag.stderr.contains("--now needs an ISO 8601 instant with an offset or Z"))
            let environment = try cli.run(["done", "make"], environment: ["MORNINGPROOF_NOW": text])
            #expect(environment.status == 64)
        }
        #expect(try cli.run(["status", "--json"], now: now).stdout.contains("\"state\":\"pending\""))
    }

    @Test func badSchedules() throws {
        let cli = try prepared()
        defer { cli.remove() }
        try expectRefused(cli, ["habit", "add", "Run", "--every", "0"], saying: "bad schedule")
        try expectRefused(cli, ["habit", "add", "Run", "--times", "8", "--per", "week"], saying: "bad schedule")
        try expectRefused(cli, ["habit", "add", "Run", "--times", "3"], saying: "needs --per week")
        try expectRefused(
            cli, ["habit", "add", "Run", "--times", "3", "--per", "fortnight"], saying: "--per takes week or month")
        try expectRefused(cli, ["habit", "add", "run", "--remind-at", "25:00"], saying: "bad --remind-at")
        try expectRefused(cli, ["habit", "add", "MAKE BED"], saying: "already exists")
    }

    @Test func removeAsksForYesAndSaysWhatWouldGo() throws {
        let cli = try prepared()
        defer { cli.remove() }
        #expect(try cli.run(["done", "make", "--date", "-1"], now: now).status == 0)
        #expect(try cli.run(["done", "make"], now: now).status == 0)
        try expectRefused(cli, ["habit", "remove", "make"], saying: "its 2 entries")
        let removed = try cli.run(["habit", "remove", "make", "--yes"], now: now)
        #expect(removed.status == 0)
        #expect(removed.stdout.contains("Removed \"Make bed\" and its 2 entries"))
    }
}
