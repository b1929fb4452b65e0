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

    private static func eventually(_ seconds: Double = 180, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }

    @Test func aCertificateIsIssuedServedKeptAcrossARestartAndRenewedWhenForced() throws {
        let pebble = try PebbleCA()
        defer {
            pebble.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        let first = try serve(pebble)
        #expect(first.firstLine.hasPrefix("morningproof-server: listening on https://127.0.0.1:"))
        #expect(
            Self.eventually { first.logText().contains("ACME: certificate for morningproof.test issued") },
            "\(first.logText())")
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
        #expect(Self.eventually { second.logText().contains("ACME: renewal due on") }, "\(second.logText())")
        #expect(!second.logText().contains("ACME: ordering"))
        #expect(try servedSerial(second) == issued)
        #expect(try health(second, pebble).status == 0)
        #expect(second.stop() == 0)

        // Forced: a new certificate is ordered while the stored one is served, and new connections get it.
        let third = try serve(pebble, ["--acme-renew-now"])
        #expect(
            Self.eventually { third.logText().contains("ACME: certificate for morningproof.test issued") },
            "\(third.logText())")
        let renewed = try servedSerial(third)
        let storedAgain = try storedSerial()
        #expect(renewed.hasPrefix("serial=") && renewed != issued && renewed == storedAgain)
        #expect(try health(third, pebble).status == 0)
        #expect(third.stop() == 0)
    }

    @Test func anOrderTheCARefusesStopsTheStartWithItsReason() throws {
        let pebble = try PebbleCA()
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

/// Pebble and pebble-challtestsrv (its fake DNS: every name is 127.0.0.1) in a temporary folder,
/// on free loopback ports, Pebble's https certificate made by a `TestCertificateAuthority`.
final class PebbleCA {
    static let executable = "/usr/bin/pebble"
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: executable)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/pebble-challtestsrv")
    }
    /// A name on Pebble's block list: every order for it is refused.
    static let blockedDomain = "blocked.morningproof.test"

    let authority: TestCertificateAuthority
    let port: Int
    let managementPort: Int
    /// Where Pebble asks for HTTP-01 challenges: the server's --acme-http-port.
    let httpPort: Int
    private let pebble = Process()
    private let dns = Process()

    init() throws {
        try #require(Self.isInstalled, "pebble is not installed at \(Self.executable)")
        authority = try TestCertificateAuthority()
        let leaf = try authority.leaf("pebble", serial: 1, keyType: .ecdsa)
        port = try freeLoopbackPort()
        managementPort = try freeLoopbackPort()
        httpPort = try freeLoopbackPort()
        let dnsPort = try freeLoopbackPort()
        let configuration = authority.folder.appendingPathComponent("pebble.json")
        try """
        {"pebble": {"listenAddress": "127.0.0.1:\(port)", "managementListenAddress": "127.0.0.1:\(managementPort)",
          "certificate": "\(leaf.certificate)", "privateKey": "\(leaf.key)",
          "httpPort": \(httpPort), "tlsPort": \(try freeLoopbackPort()), "ocspResponderURL": "",
          "externalAccountBindingRequired": false, "domainBlocklist": ["\(Self.blockedDomain)"]}}
        """.write(to: configuration, atomically: true, encoding: .utf8)
        dns.executableURL = URL(fileURLWithPath: "/usr/bin/pebble-challtestsrv")
        dns.arguments = [
            "-dns01", "127.0.0.1:\(dnsPort)", "-http01", "", "-https01", "", "-tlsalpn01", "",
            "-management", "127.0.0.1:\(try freeLoopbackPort())", "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "",
        ]
        pebble.executableURL = URL(fileURLWithPath: Self.executable)
        pebble.arguments = ["-config", configuration.path, "-dnsserver", "127.0.0.1:\(dnsPort)"]
        pebble.environment = ProcessInfo.processInfo.environment.merging(["PEBBLE_VA_NOSLEEP": "1"]) { $1 }
        for process in [dns, pebble] {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (try? rootCertificate()) == nil { usleep(100_000) }
        _ = try rootCertificate()
    }

    /// The options that point the server at this Pebble.
    var arguments: [String] { arguments(httpPort: httpPort) }

    func arguments(httpPort: Int) -> [String] {
        [
            "--acme-directory", "https://127.0.0.1:\(port)/dir", "--acme-ca-certificate", authority.certificate,
            "--acme-http-port", "\(httpPort)",
        ]
    }

    /// Pebble's root (made anew at each start), which its certificates chain to.
    func rootCertificate() throws -> String {
        let path = authority.folder.appendingPathComponent("pebble-root.pem").path
        if FileManager.default.fileExists(atPath: path) { return path }
        let fetched = try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/curl"),
            [
                "-sSf", "--max-time", "10", "--cacert", authority.certificate,
                "https://127.0.0.1:\(managementPort)/roots/0",
            ])
        guard fetched.status == 0, fetched.stdout.contains("BEGIN CERTIFICATE") else {
            throw TestFailure("Pebble's root: \(fetched.stderr)")
        }
        try fetched.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func stop() {
        for process in [pebble, dns] where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        authority.remove()
    }
}
