import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

/// Control characters and absurd lengths in user text: refused on the way in (exit 64, nothing
/// stored), and shown as visible escapes on the way out when an older database holds them.
@Suite struct UserTextTests {
    let now = "2026-03-10T08:00:00Z"

    func expectRefused(_ cli: CLI, _ arguments: [String], saying text: String) throws {
        let before = try cli.run(["report", "--format", "json"], now: now).stdout
        let settings = try cli.run(["config", "show", "--json"], now: now).stdout
        let result = try cli.run(arguments, now: now)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stdout.isEmpty)
        #expect(try cli.run(["report", "--format", "json"], now: now).stdout == before)
        #expect(try cli.run(["config", "show", "--json"], now: now).stdout == settings)
    }

    @Test func controlCharactersInNamesAreRefused() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed"], now: now).status == 0)
        try expectRefused(
            cli, ["habit", "add", "Evil\u{1B}[31mRED"], saying: "the habit name contains the control character U+001B")
        try expectRefused(cli, ["habit", "add", "line1\nline2"], saying: "U+000A")
        try expectRefused(cli, ["habit", "add", "Read\u{202E}txt.exe"], saying: "U+202E")
        try expectRefused(cli, ["habit", "add", "tab\there"], saying: "U+0009")
        try expectRefused(cli, ["habit", "add", "c1\u{9B}2J"], saying: "U+009B")
        try expectRefused(
            cli, ["habit", "edit", "make", "--rename", "Make\u{7F}bed"],
            saying: "--rename contains the control character U+007F")
    }

    @Test func habitNamesAreCappedAt100Characters() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try expectRefused(
            cli, ["habit", "add", String(repeating: "a", count: 101)], saying: "is 101 characters long; the most is 100"
        )
        let exact = String(repeating: "é", count: 100)
        let added = try cli.run(["habit", "add", "  " + exact + "  "], now: now)
        #expect(added.status == 0, "\(added.stderr)")
        let habits = try cli.json(["habit", "list"], now: now) as? [[String: Any]]
        #expect(habits?.first?["name"] as? String == exact)
    }

    @Test func notesAndCheckinTextsAreChecked() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed"], now: now).status == 0)
        try expectRefused(
            cli, ["done", "make", "--note", "ok\u{1B}]0;title\u{07}"],
            saying: "--note contains the control character U+001B")
        try expectRefused(cli, ["habit", "edit", "make", "--note", "a\rb"], saying: "U+000D")
        try expectRefused(
            cli, ["done", "make", "--note", String(repeating: "n", count: 1_001)], saying: "the most is 1000")
        try expectRefused(
            cli, ["checkin", "setup", "--question", "Pray?\u{2066}"],
            saying: "--question contains the control character U+2066")
        try expectRefused(
            cli, ["config", "set", "checkin.verse", "v\u{1B}[2J"],
            saying: "the value of checkin.verse contains the control character U+001B")
        try expectRefused(
            cli, ["config", "set", "checkin.question", String(repeating: "q", count: 501)], saying: "the most is 500")
        #expect(try cli.run(["done", "make", "--note", "Fine, plain text"], now: now).status == 0)
    }

    /// Writes a habit name straight into the database, the way an older version could have.
    func storeRawName(_ cli: CLI, renaming old: String, to name: String) async throws {
        let database = try AppDatabase.open(path: cli.database.path)
        var habit = try await database.findHabit(named: old)
        habit.name = name
        try await database.updateHabit(habit)
    }

    @Test func storedControlCharactersNeverReachTheTerminal() async throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Placeholder"], now: now).status == 0)
        #expect(try cli.run(["habit", "add", "Read"], now: now).status == 0)
        let evil = "Evil\u{1B}[31mRED\nline2\u{202E}"
        try await storeRawName(cli, renaming: "Placeholder", to: evil)
        let status = try cli.run(["status"], now: now)
        #expect(status.status == 0)
        #expect(!status.stdout.contains("\u{1B}"))
        #expect(!status.stdout.contains("\u{202E}"))
        #expect(status.stdout.contains("Evil\\u{1B}[31mRED\\u{A}line2\\u{202E}"))
        // A header, one line per habit, a summary.
        #expect(status.stdout.split(separator: "\n").count == 4, "\(status.stdout)")
        for arguments in [["habit", "list"], ["habit", "show", "evil"], ["report"], ["gate"]] {
            let result = try cli.run(arguments, now: now)
            #expect(!result.stdout.contains("\u{1B}"), "\(arguments)")
            #expect(!result.stdout.contains("\u{202E}"), "\(arguments)")
        }
        // JSON keeps the true string.
        let json = try cli.json(["status"], now: now) as? [String: Any]
        let names = (json?["habits"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.contains(evil) == true)
    }

    @Test func longStoredNamesFitTheTerminal() async throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Placeholder"], now: now).status == 0)
        #expect(try cli.run(["habit", "add", "Read"], now: now).status == 0)
        try await storeRawName(cli, renaming: "Placeholder", to: String(repeating: "x", count: 10_000))
        for columns in [80, 120] {
            let status = try cli.run(["status"], now: now, environment: ["COLUMNS": "\(columns)"])
            #expect(status.status == 0)
            let lines = status.stdout.split(separator: "\n")
            #expect(lines.count == 4)
            for line in lines { #expect(line.count <= columns, "\(line.count) > \(columns)") }
            #expect(status.stdout.contains("x…"))
        }
    }
}
