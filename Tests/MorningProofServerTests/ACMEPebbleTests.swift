import Foundation
import MorningProofTestSupport
import Testing

/// `serve --acme-domain` against Pebble (Debian `pebble`, Let's Encrypt's test CA) on loopback:
/// Pebble's validation resolves every name to 127.0.0.1 through pebble-challtestsrv's DNS, and
/// asks for HTTP-01 on the server's --acme-http-port. Pebble refuses 5% of good nonces, so the
/// nonce retry runs for real. Skipped when pebble is not installed, unless
/// `MORNINGPROOF_REQUIRE_DEPLOY=1` (CI): then it fails.
@Suite(
    "serve --acme-domain against Pebble", .serialized,
    .enabled(
        if: PebbleCA.isInstalled || NginxProxy.isRequired,
        "pebble is not installed (Debian package pebble); MORNINGPROOF_REQUIRE_DEPLOY=1 makes this a failure"))
struct ACMEPebbleTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-acme-pebble-\(UUID().uuidString)")
    var database: String { folder.appendingPathComponent("data.sqlite").path }
    var certificate: String { folder.appendingPathComponent("acme/morningproof.test.pem").path }
    static let domain = "morningproof.test"

    private func serve(_ pebble: PebbleCA, domain: String = domain, _ more: [String] = []) throws -> ServerProcess {
        try ServerProcess(
            ["serve", "--db", database, "--port", "0", "--acme-domain", domain] + pebble.arguments + more,
            keepLog: true)
    }

    private func curl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltBinary.run(executable: URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", "--max-time", "60"] + arguments)
    }

    /// GET /health at https://morningproof.test:PORT, trusting Pebble's root only.
    private func health(_ server: ServerProcess, _ pebble: PebbleCA) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let port = RawConnection.port(of: server.address)
        return try curl([
            "--cacert", try pebble.rootCertificate(), "--resolve", "\(Self.domain):\(port):127.0.0.1",
            "https://\(Self.domain):\(port)/health",
        ])
    }

    private func servedSerial(_ server: ServerProcess) throws -> String {
        let shown = try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "openssl s_client -connect 127.0.0.1:\(RawConnection.port(of: server.address)) "
                    + "-servername \(Self.domain) </dev/null 2>/dev/null | openssl x509 -noout -serial",
            ])
        return shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func storedSerial() throws -> String {
        try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/openssl"), ["x509", "-noout", "-serial", "-in", certificate]
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `server`'s log says `line` within `seconds` (generous: on a machine this busy Pebble's
    /// answers and the server's take seconds each); false at once when the server has ended.
    private static func logs(_ server: ServerProcess, _ line: String, within seconds: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, server.process.isRunning {
            if server.logText().contains(line) { return true }
            usleep(200_000)
        }
        return server.logText().contains(line)
    }

    /// What a failure shows: the server's log and the tail of Pebble's.
    private static func shown(_ server: ServerProcess, _ pebble: PebbleCA) -> String {
        "--- the server's log:\n\(server.logText())\n\(pebble.logTail())"
    }

    @Test func aCertificateIsIssuedServedKeptAcrossARestartAndRenewedWhenForced() throws {
        let pebble = try PebbleCA(logFolder: folder)
        defer {
            pebble.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let first = try serve(pebble)
        #expect(first.firstLine.hasPrefix("morningproof-server: listening on https://127.0.0.1:"))
        try #require(
            Self.logs(first, "ACME: certificate for morningproof.test issued"), "\(Self.shown(first, pebble))")
        let issued = try servedSerial(first)
        let stored = try storedSerial()
        #expect(issued.hasPrefix("serial=") && issued == stored)
        let answer = try health(first, pebble)
        #expect(answer.status == 0 && answer.stdout.contains(#""status":"ok""#), "\(answer.stderr)")
        // The plain listener sends everything but the CA's challenges to https.
        let plain = try curl([
            "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "http://127.0.0.1:\(pebble.httpPort)/today",
        ])
        #expect(plain.stdout.hasPrefix("308 https://127.0.0.1:"), "\(plain.stdout)")
        for file in ["account-key.pem", "morningproof.test.pem", "morningproof.test-key.pem"] {
            let path = folder.appendingPathComponent("acme/\(file)").path
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        #expect(first.stop() == 0)

        // A restart serves the stored certificate and orders nothing.
        let second = try serve(pebble)
        #expect(Self.logs(second, "ACME: renewal due on"), "\(Self.shown(second, pebble))")
        #expect(!second.logText().contains("ACME: ordering"))
        #expect(try servedSerial(second) == issued)
        #expect(try health(second, pebble).status == 0)
        #expect(second.stop() == 0)

        // Forced: a new certificate is ordered while the stored one is served, and new connections get it.
        let third = try serve(pebble, ["--acme-renew-now"])
        try #require(
            Self.logs(third, "ACME: certificate for morningproof.test issued"), "\(Self.shown(third, pebble))")
        let renewed = try servedSerial(third)
        let storedAgain = try storedSerial()
        #expect(renewed.hasPrefix("serial=") && renewed != issued && renewed == storedAgain)
        #expect(try health(third, pebble).status == 0)
        #expect(third.stop() == 0)
    }

    @Test func anOrderTheCARefusesStopsTheStartWithItsReason() throws {
        let pebble = try PebbleCA(logFolder: folder)
        defer {
            pebble.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let refused = try BuiltBinary.run(
            "morningproof-server",
            ["serve", "--db", database, "--port", "0", "--acme-domain", PebbleCA.blockedDomain] + pebble.arguments)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("morningproof-server: the ACME CA refused "), "\(refused.stderr)")
        #expect(refused.stderr.contains("rejectedIdentifier"), "\(refused.stderr)")

        // A CA that cannot reach the server on its http port: the validation's failure, said.
        let unvalidated = try BuiltBinary.run(
            "morningproof-server",
            ["serve", "--db", database, "--port", "0", "--acme-domain", "elsewhere.test"]
                + pebble.arguments(httpPort: try freeLoopbackPort()))
        #expect(unvalidated.status == 64, "\(unvalidated.stderr)")
        #expect(unvalidated.stderr.contains("the ACME CA could not validate elsewhere.test"), "\(unvalidated.stderr)")
    }
}
