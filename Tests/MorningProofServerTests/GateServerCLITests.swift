import Foundation
import MorningProofTestSupport
import Testing

/// Issue 42: `morningproof gate --server URL` answers from a running server's account, with the
/// CLI's exit codes, and with no server reachable keeps the last open answer of today, else closed.
@Suite("The CLI's gate from a running server")
struct GateServerCLITests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-gate42-\(UUID().uuidString)")
    var database: String { folder.appendingPathComponent("data.sqlite").path }

    @Test func gateServerIsOpenOrClosedAsTheAPISays() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = { (arguments: [String], extra: [String: String]) in
            try BuiltBinary.run(
                "morningproof", ["--db", database] + arguments,
                environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path].merging(extra) { $1 })
        }
        #expect(try cli(["config", "set", "timezone", "UTC"], [:]).status == 0)
        #expect(try cli(["habit", "add", "Make bed", "--required"], [:]).status == 0)
        let made = try BuiltBinary.run(
            "morningproof-server", ["token", "create", "--db", database, "--name", "laptop", "--scope", "gate"])
        let token = String(made.stdout.split(separator: "\n").last ?? "")
        let server = try ServerProcess(["--db", database, "--port", "0"])
        let asked = ["MORNINGPROOF_GATE_TOKEN": token]

        let closed = try cli(["gate", "--server", server.address], asked)
        #expect(closed.status == 1, "\(closed.stdout) \(closed.stderr)")
        #expect(closed.stdout.contains("Make bed"), "\(closed.stdout)")
        #expect(try cli(["done", "Make bed"], [:]).status == 0)
        let open = try cli(["gate", "--server", server.address, "--quiet"], asked)
        #expect(open.status == 0, "\(open.stdout) \(open.stderr)")
        let ran = try cli(["gate", "--server", server.address, "--exec", "/bin/echo", "ran"], asked)
        #expect(ran.status == 0 && ran.stdout.hasSuffix("ran\n"), "\(ran.stdout) \(ran.stderr)")
        let wrong = try cli(
            ["gate", "--server", server.address], ["MORNINGPROOF_GATE_TOKEN": "mp_" + String(repeating: "a", count: 43)]
        )
        #expect(wrong.status == 64, "\(wrong.stderr)")

        // The server stopped: the open answer of today holds; with no answer kept, closed.
        #expect(server.stop() == 0)
        let offline = try cli(["gate", "--server", server.address], asked)
        #expect(offline.status == 0 && offline.stderr.contains("cannot reach"), "\(offline.stderr)")
        let elsewhere = try cli(
            ["gate", "--server", server.address],
            asked.merging(["XDG_CACHE_HOME": folder.appendingPathComponent("other").path]) { $1 })
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains("stays closed"), "\(elsewhere.stderr)")
        // Tomorrow, the kept answer no longer holds.
        let tomorrow = try cli(
            [
                "gate", "--server", server.address, "--now",
                ISO8601DateFormatter().string(from: Date().addingTimeInterval(86_400 * 2)),
            ], asked)
        #expect(tomorrow.status == 1, "\(tomorrow.stderr)")
    }
}
