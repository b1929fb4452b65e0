import Foundation
import MorningProofTestSupport
import Testing

/// `notify --once` from cron: a missing push contact is a setup matter, said by `serve` at its start
/// or with `--verbose`, not on every run (issue 37, the first run).
@Suite struct NotifyWarningTests {
    @Test func notifyOnceFromCronDoesNotWarnEveryRunAboutThePushContact() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "morningproof-notify-warning-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("data.sqlite").path
        let warning = "no contact given"
        for _ in 1...2 {
            let quiet = try BuiltBinary.run("morningproof-server", ["notify", "--once", "--db", database])
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout.hasPrefix("notify: "), "\(quiet.stdout)")
            #expect(!quiet.stderr.contains(warning), "\(quiet.stderr)")
        }
        let verbose = try BuiltBinary.run("morningproof-server", ["notify", "--once", "--verbose", "--db", database])
        #expect(verbose.status == 0 && verbose.stderr.contains(warning), "\(verbose.stderr)")
        let given = try BuiltBinary.run(
            "morningproof-server",
            ["notify", "--once", "--verbose", "--db", database, "--push-contact", "mailto:ada@example.com"])
        #expect(given.status == 0 && !given.stderr.contains(warning), "\(given.stderr)")
    }
}
