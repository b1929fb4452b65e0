import Foundation
import TestFixtures
import Testing

/// `import`, `export`, `backup` and `restore` as a person or a script runs them.
@Suite struct InterchangeCommandTests {
    static let now = "2026-03-09T12:00:00Z"
    static let harsh = Fixtures.path("harsh")

    @Test func aHarshImportIsADryRunUntilApplied() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let dryRun = try cli.run(["import", "harsh", Self.harsh], now: Self.now)
        #expect(dryRun.status == 0)
        #expect(
            dryRun.stdout.hasPrefix(
                "Dry run of \(Self.harsh) (harsh): nothing was written. Would create 6 habits and add 92 entries (2026-01-20 to 2026-03-09).\n"
                    + "  + Meditated (manual, daily): 36 entries (2026-02-01 to 2026-03-09)\n"))
        #expect(dryRun.stdout.hasSuffix("Run it again with --apply to import.\n"))
        #expect(dryRun.stderr.contains("morningproof: warning: \(Self.harsh)/log:154: bad date \"2026-02-30\"; left out\n"))
        #expect(try cli.run(["habit", "list"], now: Self.now).stdout.hasPrefix("No habits"))

        let applied = try cli.run(["import", "harsh", Self.harsh, "--apply"], now: Self.now)
        #expect(applied.status == 0)
        #expect(applied.stdout.hasPrefix("Imported \(Self.harsh) (harsh): created 6 habits and added 92 entries"))
        let report = try cli.run(["report", "gym", "--format", "csv"], now: Self.now)
        #expect(report.stdout.contains("\nGym,18,18,2026-02-20,2026-03-09,"))

        // Again: everything is already here; with --no-merge it is refused.
        let again = try cli.run(["import", "harsh", Self.harsh, "--json"], now: Self.now)
        let json = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(json?["entriesAdded"] as? Int == 0)
        #expect(json?["habitsMerged"] as? Int == 6)
        #expect(json?["applied"] as? Bool == false)
        let refused = try cli.run(["import", "harsh", Self.harsh, "--no-merge", "--apply"], now: Self.now)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("\"Meditated\", \"Stretched\", \"Gym\", \"Long run\", \"Coffee\", \"Old habit\" already exist here; nothing was imported (without --no-merge the import merges into them, keeping every day already recorded)\n"))
    }

    @Test func aMissingOrWrongFileIsRefusedBeforeTheDatabaseIsTouched() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let missing = try cli.run(["import", "loop", cli.directory.path + "/nothing.db"], now: Self.now)
        #expect(missing.status == 66)
        #expect(missing.stderr == "morningproof: \(cli.directory.path)/nothing.db: no such file or folder\n")
        let text = cli.directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        let wrong = try cli.run(["import", "loop", text.path, "--apply"], now: Self.now)
        #expect(wrong.status == 65)
        #expect(try cli.run(["import", "json", text.path], now: Self.now).status == 65)
        #expect(try cli.run(["import", "harsh", text.path], now: Self.now).status == 65)
        #expect(!FileManager.default.fileExists(atPath: cli.database.path))
    }

    @Test func exportThenImportRoundTripsThroughTheCommands() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["import", "harsh", Self.harsh, "--apply"], now: Self.now)
        try cli.run(["done", "gym", "--note", "pull-ups, \"8\""], now: "2026-03-10T07:15:30.250+01:00")
        let export = try cli.run(["export"], now: Self.now)
        #expect(export.status == 0)
        #expect(export.stdout.hasPrefix("{\n  \"format\" : \"morningproof-export\",\n"))
        let file = cli.directory.appendingPathComponent("export.json")
        let written = try cli.run(["export", "--out", file.path], now: "2027-01-01T00:00:00Z")
        #expect(written.stdout == "Exported 6 habits and 93 entries to \(file.path) (json).\n")
        #expect(try Data(contentsOf: file) == Data(export.stdout.utf8))

        let other = try CLI()
        defer { other.remove() }
        let imported = try other.run(["import", "json", file.path, "--apply"], now: "2026-04-01T00:00:00Z")
        #expect(imported.status == 0)
        #expect(imported.stderr == "")
        #expect(try other.run(["export"], now: "2026-05-01T00:00:00Z").stdout == export.stdout)

        let csv = try cli.run(["export", "--format", "csv"], now: Self.now)
        #expect(csv.stdout.hasPrefix("habit,date,state,value,source,note\nMeditated,2026-02-01,done,,import,\n"))
        #expect(try cli.run(["export", "--format", "xml"], now: Self.now).status == 64)
    }

    @Test func backupAndRestore() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["habit", "add", "Read"], now: Self.now)
        let first = try cli.run(["backup", "--keep", "2"], now: "2026-03-09T07:00:00Z")
        #expect(first.status == 0)
        let backups = cli.directory.appendingPathComponent("backups").path
        #expect(first.stdout.hasPrefix("Backed up to \(backups)/morningproof-2026-03-09T070000Z.sqlite ("))
        try cli.run(["backup", "--keep", "2"], now: "2026-03-10T07:00:00Z")
        let third = try cli.run(["backup", "--keep", "2", "--json"], now: "2026-03-11T07:00:00Z")
        let json = try JSONSerialization.jsonObject(with: Data(third.stdout.utf8)) as? [String: Any]
        #expect(json?["removed"] as? [String] == ["\(backups)/morningproof-2026-03-09T070000Z.sqlite"])
        #expect(try cli.run(["backup", "x.sqlite", "--keep", "2"], now: Self.now).status == 64)

        try cli.run(["habit", "add", "Write"], now: Self.now)
        let restored = try cli.run(["restore", "\(backups)/morningproof-2026-03-10T070000Z.sqlite"], now: "2026-03-12T08:00:00Z")
        #expect(restored.status == 0)
        #expect(restored.stdout.hasSuffix("The database it replaced is kept as \(backups)/before-restore-2026-03-12T080000Z.sqlite.\n"))
        #expect(try cli.run(["habit", "list"], now: Self.now).stdout == "Read  manual, daily\n")

        let newer = cli.directory.appendingPathComponent("newer.sqlite")
        try cli.run(["backup", newer.path], now: Self.now)
        try sqlite3(newer, "INSERT INTO grdb_migrations VALUES ('v99-later');")
        let refused = try cli.run(["restore", newer.path], now: Self.now)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("was written by a newer MorningProof (schema v99-later)"))
        #expect(try cli.run(["restore", cli.directory.path + "/none.sqlite"], now: Self.now).status == 66)
        #expect(try cli.run(["habit", "list"], now: Self.now).stdout == "Read  manual, daily\n")
    }

    @Test func everyNewCommandTeachesWithAnExample() throws {
        let cli = try CLI()
        defer { cli.remove() }
        for command in [["import"], ["import", "loop"], ["import", "harsh"], ["import", "json"], ["export"], ["backup"], ["restore"]] {
            let help = try cli.run(command + ["--help"], passDatabase: false)
            #expect(help.status == 0)
            #expect(help.stdout.contains("Example"), "\(command) --help")
            #expect(help.stdout.contains("morningproof \(command[0])"), "\(command) --help")
        }
    }

    func sqlite3(_ url: URL, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [url.path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
