import Foundation
import Testing

/// The database file as a cron job sees it: foreign, damaged or newer files are refused untouched,
/// and concurrent writers never lose an entry.
@Suite struct DatabaseFileTests {
    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    @Test func refusesAFileThatIsNotADatabaseAndLeavesIt() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let text = Data("my shopping list\n".utf8)
        try text.write(to: cli.database)
        let result = try cli.run(["status"], now: "2026-03-01T08:00:00Z")
        #expect(result.status == 74)
        #expect(result.stderr.contains("is not a MorningProof database"))
        #expect(try bytes(cli.database) == text)
    }

    @Test func refusesAnotherProgramsSQLiteFile() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try sqlite(cli.database, "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada');")
        let before = try bytes(cli.database)
        let result = try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z")
        #expect(result.status == 74)
        #expect(result.stderr.contains("another program"))
        #expect(try bytes(cli.database) == before)
    }

    @Test func refusesADamagedDatabaseAndLeavesIt() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z").status == 0)
        // Fold the WAL back so the main file holds everything, then damage the schema page.
        try sqlite(cli.database, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;")
        var data = try bytes(cli.database)
        for i in 100..<min(data.count, 1_500) { data[i] = 0xA5 }
        try data.write(to: cli.database)
        let result = try cli.run(["status"], now: "2026-03-01T09:00:00Z")
        #expect(result.status == 74)
        #expect(result.stderr.contains("damaged"))
        #expect(try bytes(cli.database) == data)
    }

    @Test func refusesADatabaseFromANewerMorningProof() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z").status == 0)
        try sqlite(
            cli.database, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future'); PRAGMA wal_checkpoint(TRUNCATE);"
        )
        let before = try bytes(cli.database)
        let result = try cli.run(["done", "read"], now: "2026-03-01T09:00:00Z")
        #expect(result.status == 74)
        #expect(result.stderr.contains("newer MorningProof"))
        #expect(try bytes(cli.database) == before)
    }

    @Test func findsTheDatabaseByFlagThenEnvironmentThenXDG() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let byFlag = cli.directory.appendingPathComponent("flag/a/b.sqlite")
        let byEnvironment = cli.directory.appendingPathComponent("env/c.sqlite")
        let dataHome = cli.directory.appendingPathComponent("xdg")
        let now = "2026-03-01T08:00:00Z"
        let env = ["MORNINGPROOF_DB": byEnvironment.path, "XDG_DATA_HOME": dataHome.path]
        #expect(
            try cli.run(["habit", "add", "A", "--db", byFlag.path], now: now, environment: env, passDatabase: false)
                .status == 0)
        #expect(try cli.run(["habit", "add", "B"], now: now, environment: env, passDatabase: false).status == 0)
        #expect(
            try cli.run(
                ["habit", "add", "C"], now: now, environment: ["XDG_DATA_HOME": dataHome.path], passDatabase: false
            ).status == 0)
        #expect(FileManager.default.fileExists(atPath: byFlag.path))
        #expect(FileManager.default.fileExists(atPath: byEnvironment.path))
        #expect(
            FileManager.default.fileExists(
                atPath: dataHome.appendingPathComponent("morningproof/morningproof.sqlite").path))
    }

    @Test func twentyConcurrentWritersAllLand() async throws {
        let cli = try CLI()
        defer { cli.remove() }
        let names = (1...20).map { "Habit \($0)" }
        for name in names { #expect(try cli.run(["habit", "add", name], now: "2026-03-01T08:00:00Z").status == 0) }
        let results = try await withThrowingTaskGroup(of: CLI.Result.self) { group in
            for name in names {
                group.addTask { try cli.run(["done", name], now: "2026-03-01T09:00:00Z") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr).filter { !$0.isEmpty })")
        let status = try cli.json(["status"], now: "2026-03-01T10:00:00Z") as? [String: Any]
        let habits = status?["habits"] as? [[String: Any]] ?? []
        #expect(habits.count == 20)
        #expect(habits.allSatisfy { $0["state"] as? String == "done" })
    }

    @Test func commandsThatOnlyReadLeaveTheFileAsItWas() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z").status == 0)
        #expect(try cli.run(["done", "read"], now: "2026-03-01T09:00:00Z").status == 0)
        try sqlite(cli.database, "PRAGMA wal_checkpoint(TRUNCATE);")
        let before = try bytes(cli.database)
        for command in [["status"], ["habit", "list"], ["report", "--json"]] {
            #expect(try cli.run(command, now: "2026-03-01T10:00:00Z").status == 0)
        }
        // Opening used to set up WAL with a table created and dropped, checkpointed into the file.
        #expect(try bytes(cli.database) == before)
        let wal = (try? bytes(URL(fileURLWithPath: cli.database.path + "-wal"))) ?? Data()
        #expect(wal.isEmpty)
    }

    @Test func theFileIsInWALModeAndReturnsToIt() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z").status == 0)
        #expect(try sqlite(cli.database, "PRAGMA journal_mode;") == "wal")
        try sqlite(cli.database, "PRAGMA journal_mode=DELETE;")
        #expect(try cli.run(["status"], now: "2026-03-01T09:00:00Z").status == 0)
        #expect(try sqlite(cli.database, "PRAGMA journal_mode;") == "wal")
    }

    @Test func twentyProcessesCreatingOneFileAtOnceAllLand() async throws {
        let cli = try CLI()
        defer { cli.remove() }
        let results = try await withThrowingTaskGroup(of: CLI.Result.self) { group in
            for i in 1...20 {
                group.addTask { try cli.run(["habit", "add", "Habit \(i)"], now: "2026-03-01T08:00:00Z") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr).filter { !$0.isEmpty })")
        #expect(try sqlite(cli.database, "SELECT count(*) FROM habit; PRAGMA journal_mode;") == "20\nwal")
    }

    /// Runs SQL with the sqlite3 shell, as another program would, and returns what it printed.
    @discardableResult
    func sqlite(_ url: URL, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [url.path, sql]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
