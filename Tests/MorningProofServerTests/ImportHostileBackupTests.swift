import Foundation
import MorningProofTestSupport
import Testing

/// A Loop backup sent to `POST /api/import` is an SQLite file from anyone (issue 41's known
/// weakness): it is opened as SQLite's advice for untrusted databases says (no trusted schema, cell
/// size checks, no memory map, a bound on strings, a `quick_check` first). Each hostile file below was
/// imported before (200); now each is refused with 400 and nothing is stored, on both engines.
@Suite("POST /api/import: hostile SQLite files", .serialized)
struct ImportHostileBackupTests {
    /// A real backup changed by `script` (sqlite3), or by `change` on its bytes.
    static func backup(
        in folder: URL, script: String = "", change: (inout Data) throws -> Void = { _ in }
    ) throws -> Data {
        let file = try ImportRouteTests.loopBackup(in: folder)
        if !script.isEmpty { try ImportRouteTests.sqlite3(file.path, script) }
        var data = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)
        try change(&data)
        return data
    }

    /// The bytes of an SQLite file's page `number` (from 1) made garbage from its header on.
    static func damaging(page number: Int, of data: inout Data) throws {
        let pageSize = Int(data[16]) << 8 | Int(data[17])
        let start = (number - 1) * pageSize
        guard pageSize >= 512, start + 64 <= data.count else { throw TestFailure("no page \(number)") }
        data.replaceSubrange(start..<start + 64, with: Data(repeating: 0xA5, count: 64))
    }

    @Test(arguments: Engine.available) func hostileBackupsAre400AndStoreNothing(engine: Engine) async throws {
        let folder = try ImportRouteTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The page where Loop's Events table (which the import never reads) starts.
        let probe = try ImportRouteTests.loopBackup(in: folder)
        let rootpage = try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/sqlite3"),
            [probe.path, "SELECT rootpage FROM sqlite_master WHERE name = 'Events'"]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let eventsPage = try #require(Int(rootpage), "Events' page: \(rootpage)")
        try FileManager.default.removeItem(at: probe)
        let hostile: [(String, Data, String)] = [
            (
                "a view and a trigger calling functions",
                try Self.backup(
                    in: folder,
                    script: """
                        CREATE VIEW loopStats AS SELECT count(*), randomblob(100000000) FROM Repetitions;
                        CREATE TRIGGER noted AFTER INSERT ON Repetitions BEGIN SELECT load_extension('x'); END;
                        """), "holds a"
            ),
            (
                "a damaged page", try Self.backup(in: folder) { try Self.damaging(page: eventsPage, of: &$0) },
                "not a readable Loop backup"
            ),
            (
                "a huge text cell",
                try Self.backup(
                    in: folder,
                    script: "UPDATE Repetitions SET notes = replace(hex(zeroblob(1000000)), '00', 'ab') WHERE id = 1;"),
                "not a readable Loop backup"
            ),
        ]
        try await ImportRouteTests.server(engine) { server, api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            for (what, body, message) in hostile {
                let reply = try await api.importing(token: ada, type: "application/vnd.sqlite3", body: body)
                #expect(reply.status == .badRequest, "\(what): \(reply.status) \(reply.body)")
                #expect(reply.errorMessage.contains(message), "\(what): \(reply.body)")
                #expect(
                    !reply.body.contains(server.configuration.uploadFolder), "\(what): a server path in \(reply.body)")
            }
            let habits = try await api.send(.get, "/api/habits?archived=true", token: ada)
            #expect((habits.json["habits"] as? [Any])?.isEmpty == true, "\(habits.body)")
        }
    }
}
