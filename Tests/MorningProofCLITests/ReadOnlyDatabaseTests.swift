import Foundation
import Testing

/// A database the user may read but not write: the file and its folder read-only.
@Suite struct ReadOnlyDatabaseTests {
    /// Runs as another user when the tests run as root, whom file modes do not stop.
    var launcher: [String] {
        geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    }

    @Test func statusAnswersFromAReadOnlyFileWhoseStatesNeedRebuildingWithOneWarning() throws {
        let cli = try CLI()
        defer {
            chmod(cli.directory.path, 0o755)
            cli.remove()
        }
        let now = "2026-03-06T08:00:00Z"
        #expect(try cli.run(["habit", "add", "Make bed"], now: "2026-03-01T08:00:00Z").status == 0)
        #expect(try cli.run(["habit", "add", "Run", "--every", "2"], now: "2026-03-01T08:00:00Z").status == 0)
        for day in ["01", "02", "03", "05"] {
            #expect(try cli.run(["done", "Make bed"], now: "2026-03-\(day)T08:00:00Z").status == 0)
        }
        let text = try cli.run(["status"], now: now)
        let json = try cli.run(["status", "--json"], now: now)
        try DatabaseFileTests().sqlite(cli.database, "DELETE FROM habitState; PRAGMA wal_checkpoint(TRUNCATE);")
        #expect(chmod(cli.database.path, 0o444) == 0 && chmod(cli.directory.path, 0o555) == 0)

        let readOnlyText = try cli.run(["status"], now: now, launcher: launcher)
        #expect(readOnlyText.status == 0, "\(readOnlyText.stderr)")
        #expect(readOnlyText.stdout == text.stdout)
        #expect(readOnlyText.stderr.split(separator: "\n").count == 1)
        #expect(readOnlyText.stderr.hasPrefix("warning: "))
        #expect(readOnlyText.stderr.contains(cli.database.path) && !readOnlyText.stderr.contains("immutable"))
        let readOnlyJSON = try cli.run(["status", "--json"], now: now, launcher: launcher)
        #expect(readOnlyJSON.status == 0)
        #expect(readOnlyJSON.stdout == json.stdout)
        #expect((try? JSONSerialization.jsonObject(with: Data(readOnlyJSON.stdout.utf8))) != nil)
        // A write is refused as a database failure, and the file stays read-only and unchanged.
        let write = try cli.run(["done", "Run"], now: now, launcher: launcher)
        #expect(write.status == 74)
        #expect(write.stderr.contains("\(cli.database.path): attempt to write a readonly database"))
        #expect(!FileManager.default.fileExists(atPath: cli.database.path + "-wal"))
    }
}
