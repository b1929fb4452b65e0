import Foundation
import MorningProofTestSupport
import Testing

/// `serve --trusted-proxy` (issue 37, "Behind a reverse proxy"; issue 38, point 7): the built
/// server, with clients that connect from 127.0.0.1 as a proxy does and name different clients in
/// `X-Forwarded-For`. One guesser no longer locks everyone out; a peer that is not a trusted proxy
/// is counted by its own address, whatever it sends; without the option the headers change nothing.
@Suite("morningproof-server: behind a trusted proxy", .serialized)
struct TrustedProxyBinaryTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-proxy-\(UUID().uuidString)/data.sqlite").path

    private func server(_ options: [String], environment: [String: String] = [:]) throws -> (ServerProcess, Int) {
        let process = try ServerProcess(
            ["serve", "--db", database, "--port", "0", "--bcrypt-cost", "4"] + options, keepLog: true,
            environment: environment)
        return (process, RawConnection.port(of: process.address))
    }

    @Test func oneForwardedGuesserIsLimitedAndTheOthersSignIn() async throws {
        let (server, port) = try server(["--trusted-proxy", "127.0.0.1/32"])
        try await OwnThread.run {
            let proxy = ProxyClient(port: port)
            #expect(try proxy.with("X-Forwarded-For: 198.51.100.8").signUp("alice@example.com") == 201)
            let guesser = proxy.with("X-Forwarded-For: 1.1.1.1, 203.0.113.7")
            let statuses = try (0..<25).map { _ in try guesser.logIn("alice@example.com", password: "wrong guess") }
            #expect(statuses.prefix(5).allSatisfy { $0 == 401 } && statuses.dropFirst(5).allSatisfy { $0 == 429 })
            #expect(try proxy.with("X-Forwarded-For: 198.51.100.8").logIn("alice@example.com") == 200)

            // 127.0.0.2 is no trusted proxy: its X-Forwarded-For names nobody, and changing it changes nothing.
            let direct = ProxyClient(port: port, source: "127.0.0.2")
            let directStatuses = try (0..<6).map { index in
                try direct.with("X-Forwarded-For: 1.2.3.\(index)").logIn("alice@example.com", password: "wrong")
            }
            #expect(directStatuses == [401, 401, 401, 401, 401, 429])
            #expect(try proxy.with("X-Forwarded-For: 1.2.3.4").logIn("alice@example.com") == 200)
        }
        #expect(server.stop() == 0)
        let log = server.logText()
        for line in [
            "203.0.113.7 POST /api/auth/login 401", "203.0.113.7 POST /api/auth/login 429",
            "198.51.100.8 POST /api/auth/login 200", "127.0.0.2 POST /api/auth/login 429",
            "1.2.3.4 POST /api/auth/login 200",
        ] {
            #expect(log.contains(line), "\(line) in \(log.suffix(2000))")
        }
        #expect(!log.contains("1.2.3.0 POST"))
    }

    @Test func withoutTrustedProxyTheHeadersChangeNothing() async throws {
        let (server, port) = try server([])
        try await OwnThread.run {
            let proxy = ProxyClient(port: port)
            #expect(try proxy.with("X-Forwarded-For: 198.51.100.8").signUp("alice@example.com") == 201)
            for _ in 0..<5 {
                #expect(
                    try proxy.with("X-Forwarded-For: 203.0.113.7").logIn("alice@example.com", password: "no") == 401)
            }
            #expect(try proxy.with("X-Forwarded-For: 198.51.100.8").logIn("alice@example.com") == 429)
            let https = try proxy.with("X-Forwarded-Proto: https").with("Forwarded: proto=https").send("GET", "/health")
            #expect(https.status == 200 && !https.head.lowercased().contains("strict-transport-security"))
        }
        #expect(server.stop() == 0)
        #expect(server.logText().contains("127.0.0.1 POST /api/auth/login 429"))
        #expect(!server.logText().contains("203.0.113.7"))
    }

    @Test func tenSignUpsPerIPv6Slash64() async throws {
        let (server, port) = try server([], environment: ["MORNINGPROOF_TRUSTED_PROXIES": "::1, 127.0.0.1"])
        try await OwnThread.run {
            let proxy = ProxyClient(port: port)
            let first = try (1...10).map { host in
                try proxy.with("X-Forwarded-For: 2001:db8::\(host)").signUp("p\(host)@example.com")
            }
            #expect(first == Array(repeating: 201, count: 10))
            #expect(try proxy.with("X-Forwarded-For: 2001:db8::ffff:11").signUp("p11@example.com") == 429)
            #expect(try proxy.with("X-Forwarded-For: 2001:db8:0:1::1").signUp("q1@example.com") == 201)
            #expect(try proxy.with(#"Forwarded: for="[2001:db8::12]:4711""#).signUp("p12@example.com") == 429)
            #expect(try proxy.with(#"Forwarded: for="[2001:db8:0:2::1]:4711""#).signUp("r1@example.com") == 201)
        }
        #expect(server.stop() == 0)
        #expect(server.logText().contains("2001:db8::ffff:11 POST /api/auth/signup 429"))
    }

    @Test func strictTransportSecurityOnlyWhenATrustedProxySaysHTTPS() async throws {
        let (server, port) = try server(["--trusted-proxy", "127.0.0.1", "--public-url", "https://Proof.Example.net/"])
        try await OwnThread.run {
            let hsts = "strict-transport-security: max-age=31536000"
            let viaHTTPS = try ProxyClient(port: port).with("X-Forwarded-Proto: https").send("GET", "/health")
            #expect(viaHTTPS.status == 200 && viaHTTPS.head.lowercased().contains(hsts), "\(viaHTTPS.head)")
            let viaHTTP = try ProxyClient(port: port).with("X-Forwarded-Proto: http").send("GET", "/health")
            #expect(!viaHTTP.head.lowercased().contains("strict-transport"))
            let spoofed = try ProxyClient(port: port, source: "127.0.0.2").with("X-Forwarded-Proto: https")
                .send("GET", "/health")
            #expect(!spoofed.head.lowercased().contains("strict-transport"))
            let web = try ProxyClient(port: port).with("Forwarded: for=192.0.2.1;proto=https").send("GET", "/")
            #expect(web.head.lowercased().contains(hsts) && web.head.lowercased().contains("content-security-policy"))
        }
        #expect(server.stop() == 0)
    }

    /// A trusted proxy carries everyone's connections: it has no per-address cap; other peers keep theirs.
    @Test func aTrustedProxyIsNotCappedPerAddress() async throws {
        let (server, port) = try server(["--trusted-proxy", "127.0.0.1", "--max-connections-per-address", "2"])
        try await OwnThread.run {
            var held = [RawConnection]()
            for _ in 0..<5 {
                held.append(try RawConnection(port: port))
                held.last!.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try held.last!.response(within: 10).head.hasPrefix("HTTP/1.1 200"))
            }
            // One at a time, each served: connections are set up on several threads.
            for _ in 0..<2 {
                held.append(try RawConnection(port: port, from: "127.0.0.2"))
                held.last!.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try held.last!.response(within: 10).head.hasPrefix("HTTP/1.1 200"))
            }
            let third = try RawConnection(port: port, from: "127.0.0.2")
            third.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(third.isClosed(within: 5))
            withExtendedLifetime(held) {}
        }
        #expect(server.stop() == 0)
    }

    @Test func badProxyOptionsAreUsageErrors() throws {
        let cases: [([String], [String: String], String)] = [
            (["--trusted-proxy", "10.0.0.0/33"], [:], "the prefix length must be 0 to 32"),
            (["--trusted-proxy", "proxy.example.com"], [:], "\"proxy.example.com\" is not an IP address"),
            ([], ["MORNINGPROOF_TRUSTED_PROXIES": "10.0.0.1, nope"], "MORNINGPROOF_TRUSTED_PROXIES: \"nope\""),
            (["--public-url", "ftp://proof.example.net"], [:], "--public-url needs https://HOST"),
            (["--public-url", "https://proof.example.net/app"], [:], "--public-url needs https://HOST"),
            (["--public-url", "https://"], [:], "--public-url needs https://HOST"),
        ]
        for (options, environment, words) in cases {
            let refused = try BuiltBinary.run(
                "morningproof-server", ["serve", "--port", "0", "--db", database] + options, environment: environment)
            #expect(refused.status == 64, "\(options) \(environment)")
            #expect(refused.stderr.contains(words), "\(options): \(refused.stderr)")
        }
    }
}
