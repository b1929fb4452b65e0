import Foundation
import Testing

/// `--db`, `--now` and `--json` before the command as well as after it.
@Suite struct LeadingOptionsTests {
    let now = "2026-03-10T08:00:00Z"

    /// Runs exactly these arguments: no `--db` or `--now` appended.
    func raw(_ cli: CLI, _ arguments: [String]) throws -> CLI.Result {
        try cli.run(
            arguments, environment: ["XDG_DATA_HOME": cli.directory.appendingPathComponent("xdg").path],
            passDatabase: false)
    }

    @Test func beforeTheCommandAndANestedSubcommand() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let db = cli.database.path
        let added = try raw(cli, ["--db", db, "--now", now, "habit", "add", "Make bed"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try raw(cli, ["habit", "add", "Read", "--db", db, "--now", now]).status == 0)
        let done = try raw(cli, ["--db=\(db)", "--now=\(now)", "done", "make"])
        #expect(done.status == 0, "\(done.stderr)")
        let status = try raw(cli, ["--now", now, "--db", db, "--json", "status"])
        #expect(status.status == 0, "\(status.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(json?["day"] as? String == "2026-03-10")
        let names = (json?["habits"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Make bed", "Read"])
        // Mixed: some before, some after a nested subcommand.
        let setup = try raw(cli, ["--db", db, "checkin", "setup", "--question", "Ready?", "--now", now])
        #expect(setup.status == 0, "\(setup.stderr)")
        let config = try raw(cli, ["--json", "--db", db, "config", "show"])
        #expect(config.stdout.contains("\"checkin.question\":\"Ready?\""), "\(config.stdout)")
        // Nothing went to the default database.
        #expect(!FileManager.default.fileExists(atPath: cli.directory.appendingPathComponent("xdg").path))
    }

    @Test func gateExecKeepsItsArguments() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let db = cli.database.path
        let printed = try raw(
            cli, ["--db", db, "--now", now, "gate", "--exec", "printf", "%s|", "--db", "elsewhere", "--", "--now"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout == "--db|elsewhere|--|--now|")
    }

    @Test func unknownLeadingOptionsAreUsageErrors() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let unknown = try raw(cli, ["--bogus", "status"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown option \"--bogus\" before the command"))
        #expect(unknown.stderr.split(separator: "\n").count == 1)
        let mixed = try raw(cli, ["--db", cli.database.path, "--bogus", "status"])
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("--bogus"))
        let missing = try raw(cli, ["--now"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("--now needs a value"))
        let help = try raw(cli, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--db=habits.sqlite"))
        let dbHelp = try raw(cli, ["--db", cli.database.path, "--help"])
        #expect(dbHelp.status == 0)
        #expect(dbHelp.stdout.contains("SUBCOMMANDS"))
    }
}
