import Foundation
import MorningProofTestSupport
import Testing

/// Pebble and pebble-challtestsrv (its fake DNS: every name is 127.0.0.1) in a temporary folder,
/// on free loopback ports, Pebble's https certificate made by a `TestCertificateAuthority`. Both
/// write their logs into the test's folder, for `logTail()` when a test fails.
///
/// Pebble validates for real (no `PEBBLE_VA_ALWAYS_VALID`), at once (`PEBBLE_VA_NOSLEEP=1`: no
/// random wait of up to 15 s before each validation), and keeps refusing 5% of good nonces
/// (`PEBBLE_WFE_NONCEREJECT` left at its default), so the client's `badNonce` retry runs.
final class PebbleCA {
    static let executable = "/usr/bin/pebble"
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: executable)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/pebble-challtestsrv")
    }
    /// A name on Pebble's block list: every order for it is refused. Two labels, no more than any
    /// name ordered here: Pebble 2.4.0 (Debian 12's) reads a blocked name's labels off the ordered
    /// name's without checking its length, and a longer blocked name (`blocked.morningproof.test`)
    /// made it panic on every order for `morningproof.test` ("index out of range [2] with length
    /// 2"), closing the connection unanswered: no certificate could be issued.
    static let blockedDomain = "blocked.test"

    let authority: TestCertificateAuthority
    let port: Int
    let managementPort: Int
    /// Where Pebble asks for HTTP-01 challenges: the server's --acme-http-port.
    let httpPort: Int
    private let pebble = Process()
    private let dns = Process()
    /// Where Pebble's and pebble-challtestsrv's output goes.
    let pebbleLog: URL
    let dnsLog: URL

    /// Starts both, logging into `logFolder` (made when missing), and waits until Pebble's root can be
    /// read: Pebble makes its root and intermediate keys at start, seconds on a busy machine.
    init(logFolder: URL) throws {
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
        var environment = ProcessInfo.processInfo.environment
        environment["PEBBLE_VA_ALWAYS_VALID"] = nil
        environment["PEBBLE_WFE_NONCEREJECT"] = nil
        environment["PEBBLE_VA_NOSLEEP"] = "1"
        pebble.environment = environment
        try FileManager.default.createDirectory(at: logFolder, withIntermediateDirectories: true)
        pebbleLog = logFolder.appendingPathComponent("pebble.log")
        dnsLog = logFolder.appendingPathComponent("pebble-challtestsrv.log")
        for (process, log) in [(dns, dnsLog), (pebble, pebbleLog)] {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, pebble.isRunning, (try? rootCertificate()) == nil { usleep(200_000) }
        do {
            _ = try rootCertificate()
        } catch {
            let tail = logTail()
            stop()
            throw TestFailure("\(error)\n\(tail)")
        }
    }

    /// The last `lines` lines of Pebble's log and of its DNS server's, for a failure's message.
    func logTail(_ lines: Int = 40) -> String {
        [pebbleLog, dnsLog].map { log in
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
            return "--- \(log.lastPathComponent) (last \(lines) lines):\n" + tail.joined(separator: "\n")
        }.joined(separator: "\n")
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
