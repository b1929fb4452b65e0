import Foundation
import MorningProofTestSupport
import Testing

/// One document for one plan (issue 41's known weakness): `morningproof import --json` and
/// `POST /api/import` answered the same import with two shapes (`habitsCreated` and `habitsAdded`,
/// a list of conflicts and a count, warnings as text and as objects). Both now encode `ImportReport`.
@Suite("morningproof import --json and POST /api/import: one document")
struct ImportReportTests {
    /// A JSON object's fields, nested objects' and arrays' own fields too, as dotted paths.
    static func fields(_ value: Any, _ prefix: String = "") -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set<String>()) { result, field in
                result.insert(prefix + field.key)
                result.formUnion(fields(field.value, prefix + field.key + "."))
            }
        }
        if let array = value as? [Any] { return array.reduce(into: Set<String>()) { $0.formUnion(fields($1, prefix)) } }
        return []
    }

    @Test func theCLIAndTheAPIGiveTheSameFieldsAndCounts() async throws {
        let folder = try ImportRouteTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = try ImportRouteTests.loopBackup(in: folder)
        let cli = try BuiltBinary.run(
            "morningproof",
            [
                "--db", folder.appendingPathComponent("cli.sqlite").path, "--now", ImportRouteTests.now, "import",
                "loop", backup.path, "--apply", "--json",
            ])
        #expect(cli.status == 0, "\(cli.stderr)")
        let stdout = cli.stdout
        try await ImportRouteTests.server(.sqlite) { _, api in
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let reply = try await api.importing(
                token: ada, type: "application/vnd.sqlite3", body: Data(contentsOf: backup))
            #expect(reply.status == .ok, "\(reply.body)")
            let answered = reply.json
            #expect(Self.fields(answered) == Self.fields(printed), "API \(reply.body)\nCLI \(stdout)")
            for count in ["habitsCreated", "habitsMerged", "entriesAdded", "alreadyHere"] {
                #expect(answered[count] as? Int == printed[count] as? Int, "\(count)")
            }
            #expect((answered["warnings"] as? [String])?.count == (printed["warnings"] as? [String])?.count)
            #expect(answered["file"] as? String == "the upload" && printed["file"] as? String == backup.path)
        }
    }
}
