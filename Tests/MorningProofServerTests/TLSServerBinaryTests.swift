import Foundation
import MorningProofTestSupport
import Testing

/// `serve --tls-cert --tls-key`: the built server speaking https with a certificate made by a test
/// CA, as curl and openssl see it.
@Suite("morningproof-server over https", .serialized)
struct TLSServerBinaryTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-tls-server-\(UUID().uuidString)")
    var database: String { folder.appendingPathComponent("data.sqlite").path }

    private func server(_ leaf: TestCertificateAuthority.Leaf, _ more: [String] = []) throws -> ServerProcess {
        try ServerProcess(
            ["--db", database, "--port", "0", "--tls-cert", leaf.certificate, "--tls-key", leaf.key] + more,
            keepLog: true)
    }

    private func serve(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltBinary.run("morningproof-server", ["serve", "--db", database, "--port", "0"] + arguments)
    }

    private func curl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltBinary.run(executable: URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", "--max-time", "60"] + arguments)
    }

    @Test(arguments: [TestCertificateAuthority.KeyType.rsa, .ecdsa])
    func servesTheAPIOverHTTPSToAClientThatTrustsTheCA(keyType: TestCertificateAuthority.KeyType) throws {
        let authority = try TestCertificateAuthority(keyType: keyType)
        defer { authority.remove() }
        let leaf = try authority.leaf("server", serial: 1, keyType: keyType)
        let created = try BuiltBinary.run("morningproof-server", ["token", "create", "--name", "t", "--db", database])
        let token = String(created.stdout.split(separator: "\n").last ?? "")
        let server = try server(leaf)
        #expect(server.firstLine.hasPrefix("morningproof-server: listening on https://127.0.0.1:"))

        let health = try curl(["--cacert", authority.certificate, "-D", "-", "\(server.address)/health"])
        #expect(health.status == 0, "\(health.stderr)")
        #expect(health.stdout.contains(#""status":"ok""#))
        #expect(health.stdout.lowercased().contains("strict-transport-security: max-age=31536000\r\n"))
        let me = try curl([
            "--cacert", authority.certificate, "-H", "Authorization: Bearer \(token)", "\(server.address)/api/auth/me",
        ])
        #expect(me.stdout == #"{"dayStart":"00:00","id":1,"weekStart":"monday"}"#, "\(me.stderr)")
        // The web app's files keep their Content-Security-Policy beside HSTS; an error answer has HSTS too.
        let page = try curl(["--cacert", authority.certificate, "-D", "-", "-o", "/dev/null", "\(server.address)/"])
        #expect(page.stdout.lowercased().contains("content-security-policy:"))
        #expect(page.stdout.lowercased().contains("strict-transport-security: max-age=31536000"))
        let missing = try curl(["--cacert", authority.certificate, "-D", "-", "\(server.address)/api/nothing"])
        #expect(missing.stdout.hasPrefix("HTTP/1.1 404"))
        #expect(missing.stdout.lowercased().contains("strict-transport-security: max-age=31536000"))

        let untrusted = try curl(["\(server.address)/health"])
        #expect(untrusted.status == 60, "\(untrusted.stderr)")
        let plain = try curl([server.address.replacingOccurrences(of: "https://", with: "http://") + "/health"])
        #expect(plain.status != 0 && !plain.stdout.contains("status"))
        #expect(server.stop() == 0)
    }

    @Test func overPlainHTTPThereIsNoStrictTransportSecurity() throws {
        let server = try ServerProcess(["--db", database, "--port", "0"])
        let health = try curl(["-D", "-", "\(server.address)/health"])
        #expect(health.stdout.contains(#""status":"ok""#))
        #expect(!health.stdout.lowercased().contains("strict-transport-security"))
        #expect(server.stop() == 0)
    }

    @Test func sighupServesTheRenewedCertificateToNewConnectionsWhileOpenOnesContinue() throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let served = try authority.leaf("served", serial: 1, keyType: .ecdsa)
        let server = try server(served)
        let port = RawConnection.port(of: server.address)
        #expect(try TestCertificateAuthority.servedSerial(port: port) == "serial=01")

        let open = try KeptAliveTLSConnection(port: port, authority: authority.certificate)
        #expect(open.get("/health").contains(#""status":"ok""#))

        try TestCertificateAuthority.replace(served, with: try authority.leaf("renewed", serial: 2, keyType: .rsa))
        kill(server.process.processIdentifier, SIGHUP)
        #expect(try Self.eventually { try TestCertificateAuthority.servedSerial(port: port) == "serial=02" })
        #expect(open.get("/health").contains(#""status":"ok""#), "the connection opened before SIGHUP")
        #expect(try curl(["--cacert", authority.certificate, "\(server.address)/health"]).status == 0)

        // A bad new pair (a key of another certificate) is logged; the renewed certificate stays.
        try TestCertificateAuthority.replace(
            served,
            with: .init(
                certificate: served.certificate, key: try authority.leaf("other", serial: 3, keyType: .ecdsa).key))
        kill(server.process.processIdentifier, SIGHUP)
        #expect(try Self.eventually { server.logText().contains("kept the certificate served until now") })
        #expect(server.logText().contains("is not the private key of the certificate in \(served.certificate)"))
        #expect(try TestCertificateAuthority.servedSerial(port: port) == "serial=02")
        #expect(server.process.isRunning)
        open.close()
        #expect(server.stop() == 0)
    }

    @Test func aClientThatNeverSaysHelloIsCutByTheHeadTimeout() throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let server = try server(try authority.leaf("server", serial: 1, keyType: .ecdsa), ["--head-timeout", "1"])
        let silent = try RawConnection(port: RawConnection.port(of: server.address))
        #expect(silent.isClosed(within: 30))
        #expect(server.stop() == 0)
    }

    @Test func badFilesStopTheStartWithTheirExitCodes() throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let good = try authority.leaf("good", serial: 1, keyType: .ecdsa)
        let other = try authority.leaf("other", serial: 2, keyType: .rsa)
        let expired = try authority.leaf("expired", serial: 3, keyType: .ecdsa, days: -1)
        let nowhere = authority.folder.appendingPathComponent("nowhere.pem").path
        for (certificate, key, status, message) in [
            (nowhere, good.key, Int32(66), "--tls-cert \(nowhere): no such file"),
            (good.certificate, nowhere, 66, "--tls-key \(nowhere): no such file"),
            (good.certificate, other.key, 64, "--tls-key \(other.key) is not the private key of the certificate in"),
            (expired.certificate, expired.key, 64, "--tls-cert \(expired.certificate): the certificate expired on "),
            (good.key, good.key, 64, "--tls-cert \(good.key): no PEM certificate in it"),
            (good.certificate, good.certificate, 64, "--tls-key \(good.certificate): no PEM private key in it"),
            // A folder: there, but nothing can be read from it (the tests may run as root, who reads any file).
            (authority.folder.path, good.key, 64, "--tls-cert \(authority.folder.path): cannot be read"),
        ] {
            let refused = try serve(["--tls-cert", certificate, "--tls-key", key])
            #expect(refused.status == status, "\(refused.stderr)")
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
            #expect(!refused.stdout.contains("listening"))
        }
        let alone = try serve(["--tls-cert", good.certificate])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("give --tls-cert and --tls-key together"))
    }

    @Test func theRedirectListenerAnswers308ToHTTPS() throws {
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let server = try server(try authority.leaf("server", serial: 1, keyType: .ecdsa), ["--redirect-http", "0"])
        let httpsPort = RawConnection.port(of: server.address)
        var redirect = ""
        #expect(
            try Self.eventually {
                redirect =
                    server.logText().firstMatch(of: /redirecting (http:\/\/127\.0\.0\.1:\d+) to https/)
                    .map { String($0.1) } ?? ""
                return !redirect.isEmpty
            })
        let answer = try curl(["-D", "-", "-o", "/dev/null", "\(redirect)/api/status?day=2026-11-28"])
        #expect(answer.stdout.hasPrefix("HTTP/1.1 308"), "\(answer.stdout)")
        #expect(
            answer.stdout.lowercased().contains(
                "\r\nlocation: https://127.0.0.1:\(httpsPort)/api/status?day=2026-11-28\r\n"))
        let named = try curl(["-D", "-", "-o", "/dev/null", "-H", "Host: morningproof.test:8080", "\(redirect)/"])
        #expect(
            named.stdout.lowercased().contains("\r\nlocation: https://morningproof.test:\(httpsPort)/\r\n"),
            "\(named.stdout)")
        let followed = try curl(["-L", "--cacert", authority.certificate, "\(redirect)/health"])
        #expect(followed.stdout.contains(#""status":"ok""#), "\(followed.stderr)")
        let challenge = try curl(["-D", "-", "-o", "/dev/null", "\(redirect)/.well-known/acme-challenge/token"])
        #expect(challenge.stdout.hasPrefix("HTTP/1.1 404"), "\(challenge.stdout)")
        #expect(server.stop() == 0)
    }

    /// Whether `condition` holds within 30 s, asked every 0.1 s.
    static func eventually(_ condition: () throws -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }
}
