import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import TestFixtures
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `db copy`: a SQLite database moved into an empty PostgreSQL one, row for row.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct DatabaseCopyTests {
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltBinary.run(name, arguments)
    }

    /// A CLI database with the owner's habits, entries, a photo proof and a check-in, made by the CLI.
    static func cliDatabase() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp-copy-\(UUID().uuidString)")
        let path = directory.appendingPathComponent("cli.sqlite").path
        func cli(_ arguments: String...) throws {
            let result = try run("morningproof", arguments + ["--db", path])
            #expect(result.status == 0, "morningproof \(arguments): \(result.stderr)")
        }
        try cli("config", "set", "timezone", "America/New_York", "--now", "2026-03-01T12:00:00Z")
        try cli("habit", "add", "Read", "--note", "back\\slash, \"quoted\", é, 日本", "--now", "2026-03-01T12:00:00Z")
        try cli("habit", "add", "Make bed", "--kind", "photo", "--now", "2026-03-01T12:00:00Z")
        // Across New York's spring-forward night (2026-03-08).
        for day in 2...10 { try cli("done", "Read", "--now", String(format: "2026-03-%02dT14:00:00Z", day)) }
        try cli("skip", "Read", "--now", "2026-03-11T14:00:00Z")
        let photo = SampleImages.path("scenes/made-1.jpg")
        try cli("verify", photo, "--habit", "Make bed", "--now", "2026-03-10T14:00:00Z")
        try cli("checkin", "setup", "--preset", "general", "--now", "2026-03-10T14:00:00Z")
        try cli("checkin", "yes", "--now", "2026-03-10T15:00:00Z")
        return path
    }

    @Test func everyTableMovesAndReadsTheSameThroughTheStore() async throws {
        let path = try Self.cliDatabase()
        let sqlite = try AppDatabase.open(path: path)
        let ada = try #require(
            try await sqlite.createAccount(
                email: "ada@example.com", passwordHash: "h", timeZone: "Asia/Tokyo", at: Fixture.noon))
        _ = try await sqlite.insertToken(
            accountID: ada.id, name: "phone", tokenHash: "token-ada", createdAt: Fixture.noon, expiresAt: nil)
        _ = try await sqlite.changeProfile(
            of: ada.id, timeZone: "Europe/Istanbul", dayStart: 120, weekStart: 7, at: Fixture.hour(2))
        _ = try await sqlite.insertDailyUpdate(tokenHash: "token-ada", at: Fixture.noon) { _ in
            Fixture.update("2026-05-01")
        }
        let dump = try sqlite.dump()

        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 2)
            try await store.whileRunning {
                let counts = try await store.copy(dump, from: path)
                // Every table of the dump, with as many rows on both sides, and none of them empty by accident.
                #expect(Set(counts.map(\.table)).isSuperset(of: dump.tables.map(\.name)))
                for table in dump.tables {
                    let count = try #require(counts.first { $0.table == table.name })
                    #expect(count.source == table.rows.count && count.copied == table.rows.count, "\(table.name)")
                }
                for table in [
                    "account", "api_token", "habit", "entry", "evidence", "checkinAnswer", "setting", "zoneChange",
                    "daily_update",
                ] {
                    #expect((counts.first { $0.table == table }?.copied ?? 0) > 0, "\(table) copied no rows")
                }
                // The store reads what SQLite held: the token signs Ada in with her travel and update.
                let sqliteHistory = try #require(
                    try await sqlite.dailyUpdateHistory(tokenHash: "token-ada", at: Fixture.noon) {
                        $0.clock?.day(at: Fixture.noon)
                    })
                let postgresHistory = try #require(
                    try await store.dailyUpdateHistory(tokenHash: "token-ada", at: Fixture.noon) {
                        $0.clock?.day(at: Fixture.noon)
                    })
                #expect(postgresHistory.account == sqliteHistory.account)
                #expect(postgresHistory.history.days == sqliteHistory.history.days)
                #expect(postgresHistory.history.zoneChanges == sqliteHistory.history.zoneChanges)
                #expect(postgresHistory.history.update == sqliteHistory.history.update)
                // The owner's clock, which SQLite keeps in the CLI's settings, is on its account row.
                #expect(try await store.profile(of: 1) == (try await sqlite.profile(of: 1)))
                #expect(try await store.profile(of: 1)?.timeZone == "America/New_York")
                // Text with escapes, instants and days arrive as they were.
                #expect(
                    try await TestPostgres.strings(store, "SELECT note FROM habit WHERE name = 'Read'")
                        == ["back\\slash, \"quoted\", é, 日本"])
                #expect(
                    try await TestPostgres.strings(
                        store, "SELECT day || ' ' || status FROM entry ORDER BY day DESC LIMIT 1")
                        == ["2026-03-11 skipped"])
                #expect(
                    try await TestPostgres.strings(
                        store,
                        "SELECT to_char(recordedAt AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM entry WHERE day = '2026-03-09'"
                    )
                        == ["2026-03-09 14:00"])
                // New rows get ids past the copied ones.
                let bob = try #require(
                    try await store.createAccount(
                        email: "bob@example.com", passwordHash: "h", timeZone: nil, at: Fixture.noon))
                #expect(bob.id == ada.id + 1)

                // A second copy is refused and changes nothing.
                let error = await #expect(throws: StoreError.self) { try await store.copy(dump, from: path) }
                #expect(error?.code == .conflict)
                #expect(try await TestPostgres.strings(store, "SELECT count(*)::text FROM entry") == ["12"])
            }
        }
    }

    @Test func controlCharactersAndBackslashesArriveByteForByte() async throws {
        let note = "tab\there\nnew line\r\\N not null \\ back\\slash"
        let dump = DatabaseDump(
            tables: [
                .init(
                    name: "account", columns: ["id", "createdAt"],
                    rows: [[.integer(1), .text("2026-03-01 12:00:00.000")]]),
                .init(
                    name: "habit",
                    columns: [
                        "id", "accountId", "name", "kind", "schedule", "note", "required", "createdDay", "createdAt",
                    ],
                    rows: [
                        [
                            .integer(7), .integer(1), .text("Read"), .text("manual"), .text("daily"), .text(note),
                            .integer(1),
                            .text("2026-03-01"), .text("2026-03-01 12:00:00.000"),
                        ],
                        [
                            .integer(8), .integer(1), .text("Walk"), .text("manual"), .text("daily"), .null,
                            .integer(0),
                            .text("2026-03-01"), .text("2026-03-01 12:00:00.000"),
                        ],
                    ]),
            ],
            owner: AccountProfile(id: 1, email: nil, timeZone: "Europe/Berlin"))
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 1)
            try await store.whileRunning {
                let counts = try await store.copy(dump, from: "made.sqlite")
                #expect(counts.first { $0.table == "habit" }?.copied == 2)
                let notes = try await TestPostgres.strings(
                    store, "SELECT coalesce(note, 'NULL') FROM habit ORDER BY id")
                #expect(notes == [note, "NULL"])
                let required = try await TestPostgres.strings(store, "SELECT required::text FROM habit ORDER BY id")
                #expect(required == ["true", "false"])
                #expect(try await store.profile(of: 1)?.timeZone == "Europe/Berlin")
            }
        }
    }

    @Test func aTableWithNoPlaceInPostgreSQLIsRefusedBeforeAnythingIsWritten() async throws {
        var dump = DatabaseDump(tables: [], owner: AccountProfile(id: 1, email: nil, timeZone: "UTC"))
        dump.tables.append(.init(name: "habit", columns: ["id", "name"], rows: [[.integer(1), .text("Read")]]))
        dump.tables.append(.init(name: "futureTable", columns: ["id"], rows: [[.integer(1)]]))
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 1)
            try await store.whileRunning {
                let error = await #expect(throws: StoreError.self) { try await store.copy(dump, from: "old.sqlite") }
                #expect(error?.code == .badFile)
                let message = error?.message ?? ""
                #expect(message.contains("futureTable"))
                let habits = try await TestPostgres.strings(store, "SELECT count(*)::text FROM habit")
                #expect(habits == ["0"])
            }
        }
    }

    /// The CLI's database served as it is (SQLite) and copied into PostgreSQL answer the owner's
    /// status, habits, report and chart byte for byte alike: streaks, totals and scores survive the move.
    @Test func theCopiedDatabaseReadsTheSameThroughTheAPI() async throws {
        let path = try Self.cliDatabase()
        try await TestPostgres.withDatabase { url in
            let target = "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)"
            let copied = try Self.run("morningproof-server", ["db", "copy", "--db", path, "--to", target])
            #expect(copied.status == 0, "\(copied.stderr)")
            func token(_ database: [String]) throws -> String {
                let made = try Self.run("morningproof-server", ["token", "create", "--name", "test"] + database)
                #expect(made.status == 0, "\(made.stderr)")
                return String(made.stdout.split(separator: "\n").last ?? "")
            }
            let servers = [
                (
                    try ServerProcess(["serve", "--port", "0", "--allow-clock-header", "--db", path]),
                    try token(["--db", path])
                ),
                (
                    try ServerProcess(["serve", "--port", "0", "--allow-clock-header", "--database-url", target]),
                    try token(["--database-url", target])
                ),
            ]
            defer { for (server, _) in servers { _ = server.stop() } }
            // The Thursday after the last recorded day, in the owner's zone (New York).
            let now = "2026-03-12T09:00:00-04:00"
            for path in [
                "/api/status", "/api/habits?archived=true", "/api/habits/1", "/api/habits/1/entries",
                "/api/habits/1/report?weeks=3", "/api/habits/1/chart.svg?weeks=3", "/api/checkin",
                "/api/stats/summary",
            ] {
                var bodies: [String] = []
                for (server, token) in servers {
                    var request = URLRequest(url: URL(string: server.address + path)!)
                    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                    request.setValue(now, forHTTPHeaderField: "X-MorningProof-Now")
                    let (data, response) = try await URLSession.shared.data(for: request)
                    #expect(
                        (response as? HTTPURLResponse)?.statusCode == 200,
                        "\(path): \(String(decoding: data, as: UTF8.self))")
                    bodies.append(String(decoding: data, as: UTF8.self))
                }
                #expect(bodies[0] == bodies[1], "\(path) differs between SQLite and PostgreSQL")
                if path == "/api/habits/1" {
                    // Nine days done across the spring-forward night, then a skip, which keeps it.
                    let habit = (try? JSONSerialization.jsonObject(with: Data(bodies[1].utf8))) as? [String: Any]
                    #expect(habit?["name"] as? String == "Read")
                    #expect(habit?["longestStreak"] as? Int == 9, "\(bodies[1])")
                }
            }
        }
    }

    /// A CLI that never had a zone set counts its days in the machine's (TZ here): the copy pins
    /// that zone on the owner's row, since PostgreSQL has no machine's zone to fall back on, and says so.
    @Test func anOwnerWithNoZoneSetKeepsTheZoneItsDaysCountedIn() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mp-copy-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let zone = ["TZ": "Asia/Tokyo"]
        let added = try BuiltBinary.run(
            "morningproof", ["habit", "add", "Read", "--db", path, "--now", "2026-03-01T12:00:00Z"], environment: zone)
        #expect(added.status == 0, "\(added.stderr)")
        try await TestPostgres.withDatabase { url in
            let target = "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)"
            let copied = try BuiltBinary.run(
                "morningproof-server", ["db", "copy", "--db", path, "--to", target], environment: zone)
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(
                copied.stdout.contains(
                    "counted the owner's days in this machine's, Asia/Tokyo: the owner's zone is now Asia/Tokyo"),
                "\(copied.stdout)")
            let store = PostgresStore(url: url, poolSize: 1)
            let owner = try await store.whileRunning { try await store.profile(of: AccountProfile.ownerID) }
            #expect(owner?.timeZone == "Asia/Tokyo")
        }
        // A zone the CLI has set is copied as it is, without that line.
        let sqlite = try AppDatabase.open(path: path)
        try await sqlite.changeClock(to: DayClock(zoneIdentifier: "Europe/Oslo")!, at: Fixture.noon, systemZone: "Asia/Tokyo")
        let dump = try sqlite.dump(systemZone: "Asia/Tokyo")
        #expect(dump.owner.timeZone == "Europe/Oslo")
        #expect(!dump.ownerZoneFromSystem)
    }

    @Test func theCommandPrintsTheCountsAndRefusesWhatItCannotDo() async throws {
        let path = try Self.cliDatabase()
        try await TestPostgres.withDatabase { url in
            let target = "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)"
            let copied = try Self.run("morningproof-server", ["db", "copy", "--db", path, "--to", target])
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(copied.stdout.hasPrefix("Copied \(path) into PostgreSQL at \(url) in one transaction:\n"))
            #expect(copied.stdout.contains("\n  entry                 12          12\n"))
            #expect(copied.stdout.hasSuffix(" rows; every table holds as many rows as the source.\n"))

            let again = try Self.run("morningproof-server", ["db", "copy", "--db", path, "--to", target])
            #expect(again.status == 64)
            #expect(again.stderr.contains("already holds data"))

            // The owner's token, made against PostgreSQL, is listed there.
            let token = try Self.run(
                "morningproof-server", ["token", "create", "--name", "cron", "--database-url", target])
            #expect(token.status == 0, "\(token.stderr)")
            let listed = try Self.run("morningproof-server", ["token", "list", "--database-url", target])
            #expect(listed.stdout.contains("owner  \"cron\""))
        }
        let missing = try Self.run(
            "morningproof-server",
            ["db", "copy", "--db", "/nonexistent/cli.sqlite", "--to", "postgres://x@127.0.0.1:1/x"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "morningproof-server: /nonexistent/cli.sqlite: no such database file\n")
        let unreachable = try Self.run(
            "morningproof-server", ["db", "copy", "--db", path, "--to", "postgres://x@127.0.0.1:1/x"])
        #expect(unreachable.status == 74)
        #expect(unreachable.stderr.contains("cannot connect to PostgreSQL at 127.0.0.1:1/x"))
    }
}
