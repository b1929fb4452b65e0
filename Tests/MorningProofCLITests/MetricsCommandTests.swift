import Foundation
import TestFixtures
import Testing

/// End to end: the built binary, a temporary database, fixtures from Tests/Fixtures/health.
@Suite("metrics and source commands")
struct MetricsCommandTests {
    static let now = "2026-03-10T08:00:00-04:00"

    func fixture(_ name: String) -> String { HealthFixtures.path(name) }

    func newCLI() throws -> CLI {
        let cli = try CLI()
        try cli.run(["config", "set", "timezone", "America/New_York"], now: Self.now)
        return cli
    }

    func days(_ cli: CLI, _ arguments: [String]) throws -> [[String: Any]] {
        let result = try cli.run(["metrics", "show", "--json"] + arguments, now: Self.now)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["days"] as? [[String: Any]])
    }

    @Test("import an export, then show its days as JSON, metrics without data left out")
    func importAndShow() throws {
        let cli = try newCLI()
        defer { cli.remove() }
        let result = try cli.run(["metrics", "import", fixture("export.zip")], now: Self.now)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Read 23 records from 1 file: 4 days touched (2026-03-06 to 2026-03-09)"))
        #expect(result.stderr.contains("warning:") && result.stderr.contains("byte "))
        let shown = try days(cli, ["--date", "2026-03-07"])
        #expect(shown.count == 1)
        let day = try #require(shown.first)
        #expect(day["day"] as? String == "2026-03-07")
        #expect(day["steps"] as? Int == 6500)
        #expect(day["workouts"] as? Int == 1)
        #expect(day["workoutMinutes"] as? Double == 34.2)
        #expect(day["activeEnergyKcal"] as? Int == 400)
        #expect(day["exerciseMinutes"] as? Int == 30)
        #expect(day["mindfulMinutes"] as? Int == 10)
        #expect(day["sleepMinutes"] == nil)
        let week = try days(cli, ["--days", "5"])
        #expect(
            week.map { $0["day"] as? String } == ["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09", "2026-03-10"])
        #expect(week[0]["sleepMinutes"] as? Int == 435)
    }

    @Test("importing again skips every record as a duplicate and changes no total")
    func reimport() throws {
        let cli = try newCLI()
        defer { cli.remove() }
        try cli.run(["metrics", "import", fixture("export.xml"), fixture("metrics.csv")], now: Self.now)
        let before = try days(cli, ["--days", "10"])
        let again = try cli.run(
            ["metrics", "import", fixture("export.zip"), fixture("metrics.csv"), "--json"], now: Self.now)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(summary["recordsRead"] as? Int == 28)
        #expect(summary["duplicatesSkipped"] as? Int == 28)
        #expect((summary["daysTouched"] as? [String])?.isEmpty == true)
        let after = try days(cli, ["--days", "10"])
        #expect(NSArray(array: before).isEqual(to: after))
    }

    @Test("a malformed line is a warning with its file and line number, and the rest is read")
    func malformedLineWarned() throws {
        let cli = try newCLI()
        defer { cli.remove() }
        let result = try cli.run(["metrics", "import", fixture("metrics.csv")], now: Self.now)
        #expect(result.status == 0)
        #expect(result.stderr.contains("metrics.csv: line 4: value \"not-a-number\" is not a number"))
        #expect(result.stdout.contains("Read 5 records"))
        #expect(try days(cli, ["--date", "2026-03-08"]).first?["sleepMinutes"] as? Int == 420)
    }

    @Test("exit 65 for a file that is not a metrics file, 66 for a missing one; nothing is stored")
    func exitCodes() throws {
        let cli = try newCLI()
        defer { cli.remove() }
        let notes = cli.directory.appendingPathComponent("notes.txt")
        try "just some notes\n".write(to: notes, atomically: true, encoding: .utf8)
        let bad = try cli.run(["metrics", "import", fixture("metrics.csv"), notes.path], now: Self.now)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("not a metrics file"))
        let missing = try cli.run(
            ["metrics", "import", fixture("metrics.csv"), "/nonexistent/export.zip"], now: Self.now)
        #expect(missing.status == 66)
        // The good file named first was not read either: a bad argument changes nothing.
        #expect(try days(cli, ["--days", "10"]).allSatisfy { $0.count == 1 })
    }

    @Test("source add, list and remove; a missing path is refused with 66")
    func sources() throws {
        let cli = try newCLI()
        defer { cli.remove() }
        let copy = cli.directory.appendingPathComponent("steps.csv")
        try FileManager.default.copyItem(atPath: fixture("metrics.csv"), toPath: copy.path)
        #expect(try cli.run(["source", "add", copy.path], now: Self.now).status == 0)
        #expect(try cli.run(["source", "add", cli.directory.path], now: Self.now).status == 0)
        #expect(try cli.run(["source", "add", "/nonexistent/file.csv"], now: Self.now).status == 66)
        let list = try cli.run(["source", "list"], now: Self.now)
        #expect(list.stdout.contains("steps.csv (file)"))
        #expect(list.stdout.contains("(folder)"))
        #expect(try cli.run(["source", "remove", copy.path], now: Self.now).status == 0)
        #expect(!(try cli.run(["source", "list"], now: Self.now).stdout.contains("steps.csv")))
        #expect(try cli.run(["source", "remove", copy.path], now: Self.now).status == 64)
    }

    @Test("config set metrics.source-priority changes which source gives the day")
    func priority() throws {
        let cli = try newCLI()
        defer { cli.remove() }
        try cli.run(["metrics", "import", fixture("export.xml")], now: Self.now)
        #expect(try days(cli, ["--date", "2026-03-07"]).first?["steps"] as? Int == 6500)
        #expect(try cli.run(["config", "set", "metrics.source-priority", "iPhone, Watch"], now: Self.now).status == 0)
        #expect(try days(cli, ["--date", "2026-03-07"]).first?["steps"] as? Int == 5000)
    }
}
