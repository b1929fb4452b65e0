import Foundation
import MorningProofTestSupport
import Testing

/// The built `morningproof-server`, run the way a person or a script runs it.
@Suite("morningproof-server: token commands and serving until SIGTERM", .serialized)
struct ServerBinaryTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-server-binary-\(UUID().uuidString)/data.sqlite").path

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltBinary.run("morningproof-server", arguments + ["--db", database])
    }

    @Test func tokensAreMadeListedAndRevoked() throws {
        let created = try run(["token", "create", "--name", "backup script"])
        #expect(created.status == 0, "\(created.stderr)")
        let lines = created.stdout.split(separator: "\n")
        #expect(lines.first == "Token 1 \"backup script\" for the owner account; it never expires.")
        let token = String(lines.last ?? "")
        #expect(token.hasPrefix("mp_") && token.count == 46)

        let listed = try run(["token", "list"])
        #expect(listed.status == 0)
        #expect(listed.stdout.hasPrefix("1  owner  \"backup script\"  created "))
        #expect(listed.stdout.hasSuffix(", never expires\n"))
        #expect(!listed.stdout.contains(token))

        let unknown = try run(["token", "create", "--email", "nobody@example.com", "--name", "x"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "morningproof-server: no account has the email nobody@example.com\n")

        #expect(try run(["token", "revoke", "1"]).stdout == "Revoked token 1.\n")
        #expect(try run(["token", "list"]).stdout == "No tokens.\n")
        let again = try run(["token", "revoke", "1"])
        #expect(again.status == 64)
        #expect(again.stderr == "morningproof-server: no token has the id 1\n")
    }

    @Test func outOfRangeServeOptionsAreUsageErrors() throws {
        for (option, value, message) in [
            ("--db-wait", "0.1", "--db-wait must be 0.25 to 300 seconds"),
            ("--db-pool", "0", "--db-pool must be 1 to 64"),
            ("--cpu-queue", "10001", "--cpu-queue must be 0 to 10000"),
            ("--photo-uploads", "0", "--photo-uploads must be 1 to 1000"),
            ("--signups-per-hour", "0", "--signups-per-hour must be 1 to 1000000"),
        ] {
            let refused = try run(["serve", "--port", "0", option, value])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
    }

    @Test func servesTheOwnersDataUntilSIGTERM() throws {
        let token = String(try run(["token", "create", "--name", "test"]).stdout.split(separator: "\n").last ?? "")
        let server = try ServerProcess(["--db", database, "--port", "0", "--allow-clock-header"], keepLog: true)
        let address = server.address
        let line = server.firstLine
        #expect(line.hasPrefix("morningproof-server: listening on http://127.0.0.1:"))

        #expect(try curl(["\(address)/health"]) == #"{"clockHeader":true,"status":"ok"}"#)
        let me = try curl(["-H", "Authorization: Bearer \(token)", "\(address)/api/auth/me"])
        #expect(me == #"{"dayStart":"00:00","id":1,"weekStart":"monday"}"#)

        #expect(server.stop() == 0)
        #expect(server.process.terminationReason == .exit)
        let log = server.logText()
        #expect(log.contains("GET /health 200"))
        #expect(log.contains("GET /api/auth/me 200"))
        #expect(!log.contains(token))
    }
}
