import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import NIOCore
import TestFixtures
import Testing
import ZIPFoundation

/// Issue 41: `POST /api/import`, what `morningproof import` reads, into the signed-in account; on both engines.
@Suite("POST /api/import: Loop, harsh and our JSON, as the CLI imports them")
struct ImportRouteTests {
    /// The fixtures' today (Tests/Fixtures/loop and harsh).
    static let now = "2026-03-09T12:00:00Z"

    @Test(arguments: Engine.available) func aLoopBackupHarshAndOurJSONImportAsTheCLIsImportDoes(engine: Engine)
        async throws
    {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = try Self.loopBackup(in: folder)
        try await Self.server(engine) { server, api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let loop = try await api.importing(
                token: ada, type: "application/vnd.sqlite3", body: Data(contentsOf: backup))
            #expect(loop.status == .ok, "\(loop.body)")
            #expect(loop.json["source"] as? String == "loop")
            #expect(loop.json["habitsCreated"] as? Int == 6 && loop.json["entriesAdded"] as? Int == 99, "\(loop.body)")
            let warnings = try #require(loop.json["warnings"] as? [String])
            #expect(warnings.first == "the upload (Repetitions id 105): no habit with id 42; left out", "\(warnings)")
            #expect(loop.json["file"] as? String == "the upload" && loop.json["applied"] as? Bool == true)
            #expect(!loop.body.contains(server.configuration.uploadFolder), "a server path in \(loop.body)")
            // What the CLI's import stores from the same file.
            #expect(try await server.export(ada, api) == (try await Self.cliImport(.loop(backup.path))))

            // The same file again adds nothing.
            let again = try await api.importing(
                token: ada, type: "application/octet-stream", body: Data(contentsOf: backup))
            #expect(again.status == .ok, "\(again.body)")
            #expect(
                again.json["habitsCreated"] as? Int == 0 && again.json["entriesAdded"] as? Int == 0, "\(again.body)")
            #expect(again.json["habitsMerged"] as? Int == 6 && again.json["alreadyHere"] as? Int == 99)

            // harsh's two files in a form, into another account.
            let bob = try await api.signUp("bob@example.com", timezone: "UTC")
            let harsh = Fixtures.folder.appendingPathComponent("harsh")
            let form = try Self.form([
                ("habits", Data(contentsOf: harsh.appendingPathComponent("habits"))),
                ("log", Data(contentsOf: harsh.appendingPathComponent("log"))),
            ])
            let fromHarsh = try await api.importing(token: bob, type: form.type, body: form.body)
            #expect(fromHarsh.status == .ok && fromHarsh.json["source"] as? String == "harsh", "\(fromHarsh.body)")
            #expect(try await server.export(bob, api) == (try await Self.cliImport(.harsh(harsh.path))))
            let harshAgain = try await api.importing(token: bob, type: form.type, body: form.body)
            #expect(harshAgain.json["entriesAdded"] as? Int == 0, "\(harshAgain.body)")

            // Our JSON: Ada's export into a new account gives the same export.
            let export = try await api.send(.get, "/api/export", token: ada)
            let cy = try await api.signUp("cy@example.com", timezone: "UTC")
            let json = try await api.importing(token: cy, type: "application/json", body: Data(export.bytes))
            #expect(json.status == .ok && json.json["habitsCreated"] as? Int == 6, "\(json.body)")
            #expect(try await server.export(cy, api) == export.bytes)
        }
    }

    @Test(arguments: Engine.available) func whatIsNoSuchFileIsRefusedAndStoresNothing(engine: Engine) async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An SQLite file that is not Loop's, and a zip whose Checkmarks unpack past the limit.
        let other = folder.appendingPathComponent("other.db").path
        try Self.sqlite3(
            other, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');")
        let bomb = folder.appendingPathComponent("bomb.zip")
        let archive = try Archive(url: bomb, accessMode: .create)
        try Self.add(
            archive, "Loop/Habits.csv",
            Data("Position,Name,Question,Description,NumRepetitions,Interval,Color\n001,Walk,,,1,1,#FF0000\n".utf8))
        try archive.addEntry(
            with: "Loop/001 Walk/Checkmarks.csv", type: .file, uncompressedSize: Int64(300 << 20),
            compressionMethod: .deflate,
            provider: { (position: Int64, size: Int) in Data(count: size) })
        try await Self.server(engine) { server, api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let refusals: [(String, String, Data, String)] = [
                (
                    "garbage", "application/octet-stream", Data("hello, this is no export".utf8),
                    "not a Loop Habit Tracker backup"
                ),
                (
                    "not Loop's SQLite", "application/vnd.sqlite3", try Data(contentsOf: URL(fileURLWithPath: other)),
                    "not a Loop Habit Tracker backup"
                ),
                ("a zip bomb", "application/zip", try Data(contentsOf: bomb), "more than 256 MB"),
                (
                    "a JSON that is no export", "application/json", Data(#"{"habits": 3}"#.utf8),
                    "not a MorningProof export"
                ),
                (
                    "a truncated zip", "application/zip", try Data(contentsOf: bomb).prefix(200),
                    "not a readable zip file"
                ),
            ]
            for (what, type, body, message) in refusals {
                let reply = try await api.importing(token: ada, type: type, body: body)
                #expect(reply.status == .badRequest, "\(what): \(reply.status) \(reply.body)")
                #expect(reply.errorMessage.contains(message), "\(what): \(reply.body)")
                #expect(
                    !reply.body.contains(server.configuration.uploadFolder), "\(what): a server path in \(reply.body)")
            }
            let harshAlone = try Self.form([("habits", Data("Walk: 1\n".utf8))])
            let half = try await api.importing(token: ada, type: harshAlone.type, body: harshAlone.body, kind: "harsh")
            #expect(half.status == .badRequest && half.errorMessage.contains("habits and log"), "\(half.body)")
            let text = try await api.importing(token: ada, type: "text/plain", body: Data("Walk: 1".utf8))
            #expect(text.status == .unsupportedMediaType, "\(text.body)")
            let habits = try await api.send(.get, "/api/habits?archived=true", token: ada)
            #expect((habits.json["habits"] as? [Any])?.isEmpty == true, "\(habits.body)")
        }
    }

    @Test(arguments: Engine.available) func onlyAFullAccountsTokenImportsAndNothingPastTheLimitIsRead(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            var server = server
            server.configuration.importLimit = 4096
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                let body = Data(#"{"format": "morningproof-export", "version": 1, "habits": []}"#.utf8)
                let stranger = try await api.importing(token: nil, type: "application/json", body: body)
                #expect(stranger.status == .unauthorized)
                let metricsToken = try await api.send(
                    .post, "/api/tokens", token: ada, json: #"{"name": "phone", "scope": "metrics"}"#)
                let metrics = try #require(metricsToken.json["token"] as? String, "\(metricsToken.body)")
                let refused = try await api.importing(token: metrics, type: "application/json", body: body)
                #expect(refused.status == .unauthorized || refused.status == .forbidden, "\(refused.status)")
                let large = try await api.importing(
                    token: ada, type: "application/json", body: Data(repeating: UInt8(ascii: " "), count: 5000) + body)
                #expect(large.status == .contentTooLarge, "\(large.status) \(large.body)")
                let fine = try await api.importing(token: ada, type: "application/json", body: body)
                #expect(fine.status == .ok && fine.json["habitsCreated"] as? Int == 0, "\(fine.body)")
            }
        }
    }
}

extension ImportRouteTests {
    /// Runs `body` against a server of `engine` that reads Loop's backups, as the server command's does.
    static func server(_ engine: Engine, _ body: @Sendable (TestServer, TestAPI) async throws -> Void) async throws {
        try await TestServer.with(engine) { server in
            var server = server
            server.configuration.loopBackupReader = SQLiteLoopBackupReader()
            let configured = server
            try await server.run { api in try await body(configured, api) }
        }
    }

    /// The export that `morningproof import` of `source` leaves in a new database, imported as of the
    /// fixtures' today.
    static func cliImport(_ source: ImportSource) async throws -> [UInt8] {
        let database = try AppDatabase.inMemory()
        _ = try await ImportService(
            database: database, clock: DayClock(zoneIdentifier: "UTC")!, loopBackupReader: SQLiteLoopBackupReader()
        ).run(source, merge: true, apply: true, now: ISOInstant.parse(now)!)
        return Array(try await database.exportDocument().encoded())
    }

    /// A `multipart/form-data` body of file parts named as given.
    static func form(_ parts: [(String, Data)]) throws -> (type: String, body: Data) {
        var body = Data()
        for (name, data) in parts {
            body += Data("--XyZ\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name)\"\r\n".utf8)
            body += Data("Content-Type: application/octet-stream\r\n\r\n".utf8) + data + Data("\r\n".utf8)
        }
        return ("multipart/form-data; boundary=XyZ", body + Data("--XyZ--\r\n".utf8))
    }

    static func add(_ archive: Archive, _ path: String, _ data: Data) throws {
        try archive.addEntry(
            with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate,
            provider: { (position: Int64, size: Int) in data.subdata(in: Int(position)..<Int(position) + size) })
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "morningproof-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A real Loop backup, built by sqlite3 from Tests/Fixtures/loop/backup.sql.
    static func loopBackup(in folder: URL) throws -> URL {
        let path = folder.appendingPathComponent("Loop Habits Backup.db")
        try sqlite3(
            path.path,
            try String(contentsOf: Fixtures.folder.appendingPathComponent("loop/backup.sql"), encoding: .utf8))
        return path
    }

    static func sqlite3(_ file: String, _ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-batch", file]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("sqlite3 failed on \(file)") }
    }
}

extension TestServer {
    /// The export of the account `token` signs in, as `GET /api/export` gives it.
    func export(_ token: String, _ api: TestAPI) async throws -> [UInt8] {
        let reply = try await api.send(.get, "/api/export", token: token)
        guard reply.status == .ok else { throw TestFailure("export gave \(reply.status): \(reply.body)") }
        return reply.bytes
    }
}

extension TestAPI {
    /// `POST /api/import` of `body` as `type`, as of the fixtures' today.
    func importing(token: String?, type: String, body: Data, kind: String? = nil) async throws -> Reply {
        var headers: HTTPFields = [.contentType: type]
        if let token { headers[.authorization] = "Bearer \(token)" }
        headers[HTTPField.Name("X-MorningProof-Now")!] = ImportRouteTests.now
        return try await client.execute(
            uri: "/api/import" + (kind.map { "?kind=\($0)" } ?? ""), method: .post, headers: headers,
            body: ByteBuffer(bytes: body)
        ) { response in
            Reply(status: response.status, headers: response.headers, bytes: Array(buffer: response.body))
        }
    }
}
