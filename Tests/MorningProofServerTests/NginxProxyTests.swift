import Foundation
import Glibc
import MorningProofTestSupport
import Testing

/// The sign-in limits through a real nginx (Debian `nginx`) in front of the built server, clients
/// connecting to nginx from 127.0.0.2 and 127.0.0.3 (issue 37, "Tests with the real programs").
/// Skipped when nginx is not installed, unless `MORNINGPROOF_REQUIRE_DEPLOY=1` (CI): then it fails.
@Suite(
    "morningproof-server behind nginx", .serialized,
    .enabled(
        if: NginxProxy.isInstalled || NginxProxy.isRequired,
        "nginx is not installed (Debian package nginx); MORNINGPROOF_REQUIRE_DEPLOY=1 makes this a failure"))
struct NginxProxyTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-nginx-\(UUID().uuidString)/data.sqlite").path

    private func limitsBehindNginx(trusted: Bool) async throws -> (owner: Int, guesses: [Int], log: String) {
        try #require(NginxProxy.isInstalled, "nginx is not installed at \(NginxProxy.executable)")
        let server = try ServerProcess(
            ["serve", "--db", database, "--port", "0", "--bcrypt-cost", "4"]
                + (trusted ? ["--trusted-proxy", "127.0.0.1/32"] : []), keepLog: true)
        let nginx = try NginxProxy(upstreamPort: RawConnection.port(of: server.address))
        defer { nginx.stop() }
        let result = try await OwnThread.run { () -> (Int, [Int]) in
            let owner = ProxyClient(port: nginx.port, source: "127.0.0.3")
            #expect(try owner.signUp("alice@example.com") == 201)
            // The guesser also names a client of its own: nginx appends its real address after it.
            let guesser = ProxyClient(port: nginx.port, source: "127.0.0.2", headers: ["X-Forwarded-For: 1.2.3.4"])
            let guesses = try (0..<25).map { _ in try guesser.logIn("alice@example.com", password: "wrong guess") }
            return (try owner.logIn("alice@example.com"), guesses)
        }
        #expect(server.stop() == 0)
        return (result.0, result.1, server.logText())
    }

    @Test func oneGuesserBehindNginxIsLimitedAndTheOwnerSignsIn() async throws {
        let (owner, guesses, log) = try await limitsBehindNginx(trusted: true)
        #expect(
            guesses.prefix(5).allSatisfy { $0 == 401 } && guesses.dropFirst(5).allSatisfy { $0 == 429 }, "\(guesses)")
        #expect(owner == 200)
        for line in ["127.0.0.2 POST /api/auth/login 429", "127.0.0.3 POST /api/auth/login 200"] {
            #expect(log.contains(line), "\(line) in \(log.suffix(2000))")
        }
        #expect(!log.contains("1.2.3.4 POST"))
    }

    /// Without --trusted-proxy every client is nginx's 127.0.0.1: the guesser locks the owner out.
    @Test func withoutTrustedProxyEveryoneBehindNginxIsOneAddress() async throws {
        let (owner, _, log) = try await limitsBehindNginx(trusted: false)
        #expect(owner == 429)
        #expect(log.contains("127.0.0.1 POST /api/auth/login 429") && !log.contains("127.0.0.2 POST"))
    }
}

/// An nginx process in a temporary folder, listening on a free port of 127.0.0.1 with
/// deploy/nginx/morningproof.conf's server block (but for TLS), passing everything to the server
/// on `upstreamPort` with the forwarding headers that file sets.
final class NginxProxy {
    static let executable = "/usr/sbin/nginx"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["MORNINGPROOF_REQUIRE_DEPLOY"] == "1" }

    /// The nginx configuration docs/deploy.md ships.
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy/nginx/morningproof.conf")

    /// deploy/nginx/morningproof.conf's https server block as shipped, but for plain http on
    /// 127.0.0.1:`port` (the test's clients speak HTTP/1.1 over plain sockets from the source address
    /// they choose), the test's host name and the server's port. A line to change that is no longer
    /// there fails the test rather than testing something else.
    static func shippedServerBlock(port: Int, upstreamPort: Int) throws -> String {
        let lines = try String(contentsOf: shipped, encoding: .utf8).components(separatedBy: "\n")
        guard let listen = lines.firstIndex(of: "    listen 443 ssl http2;"),
            let start = lines[..<listen].lastIndex(of: "server {"),
            let end = lines[listen...].firstIndex(of: "}")
        else { throw TestFailure("\(shipped.path) no longer has a server block with `listen 443 ssl http2;`") }
        var block = lines[start...end].filter { !$0.contains("listen [::]:443") && !$0.contains("ssl_") }
            .joined(separator: "\n")
        for (old, new) in [
            ("listen 443 ssl http2;", "listen 127.0.0.1:\(port);"),
            ("server_name morningproof.example.com;", "server_name morningproof.test;"),
            ("proxy_pass http://127.0.0.1:8080;", "proxy_pass http://127.0.0.1:\(upstreamPort);"),
        ] {
            guard block.contains(old) else {
                throw TestFailure("\(shipped.path) no longer has \(old): update NginxProxy with it")
            }
            block = block.replacingOccurrences(of: old, with: new)
        }
        return block
    }

    let port: Int
    let folder: URL
    private let process = Process()

    init(upstreamPort: Int) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        let dir = folder.path
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log;
            events { worker_connections 256; }
            http {
                access_log \(dir)/access.log;
                client_body_temp_path \(dir)/body;
                proxy_temp_path \(dir)/proxy;
                fastcgi_temp_path \(dir)/fastcgi;
                uwsgi_temp_path \(dir)/uwsgi;
                scgi_temp_path \(dir)/scgi;
            \(try Self.shippedServerBlock(port: port, upstreamPort: upstreamPort))
            }
            """
        let file = folder.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-c", file.path, "-p", dir, "-e", "\(dir)/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while (try? RawConnection(port: port)) == nil {
            guard process.isRunning, Date() < deadline else {
                let log = (try? String(contentsOfFile: "\(dir)/error.log", encoding: .utf8)) ?? ""
                stop()
                throw TestFailure("nginx did not start on 127.0.0.1:\(port): \(log)")
            }
            usleep(50_000)
        }
    }

    /// Kills it: a process started from the test inherits its blocked signals, SIGTERM included,
    /// and nginx without a master process never unblocks them.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
