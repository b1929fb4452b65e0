import Foundation
import MorningProofTestSupport
import Testing

/// Bodies an attacker sends, against the built server over loopback (issue 23, findings 1 and 2):
/// a stranger's body is answered 401 without being read, a form cannot freeze the server, and a
/// body past its route's limit is 413 while it streams.
@Suite("morningproof-server: hostile request bodies", .serialized)
struct HostileBodyTests {
    /// A server on a new SQLite file, the owner's token, and a photo habit's proof path.
    final class Running {
        let server: ServerProcess
        let client: RawHTTPClient
        let token: String
        let proofPath: String

        init(_ options: [String] = []) throws {
            let database = FileManager.default.temporaryDirectory
                .appendingPathComponent("morningproof-hostile-\(UUID().uuidString)/data.sqlite").path
            let created = try BuiltBinary.run(
                "morningproof-server", ["token", "create", "--db", database, "--name", "hostile"])
            token = String(created.stdout.split(separator: "\n").last ?? "")
            server = try ServerProcess(["--db", database, "--port", "0"] + options)
            client = try RawHTTPClient(address: server.address)
            let habit = try client.postJSON("/api/habits", #"{"name": "Make bed", "kind": "photo"}"#, token: token)
            guard habit.status == 201, let id = habit.body.firstMatch(of: /"id":(\d+)/)?.1 else {
                throw TestFailure("creating the photo habit gave \(habit.status ?? 0): \(habit.body)")
            }
            proofPath = "/api/habits/\(id)/proof"
        }

        /// The server's peak and current resident memory, in MB (Linux's /proc).
        func memory() throws -> (peak: Double, now: Double) {
            let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
            func field(_ name: String) -> Double {
                let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
                return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
            }
            return (field("VmHWM"), field("VmRSS"))
        }

        deinit { _ = server.stop() }
    }

    /// The form of the finding: 514,000 empty parts (4.6 MB).
    static let emptyParts: [UInt8] = {
        let part = Array("--B\r\n\r\n\r\n".utf8)
        var body = [UInt8]()
        body.reserveCapacity(part.count * 514_000 + 8)
        for _ in 0..<514_000 { body += part }
        return body + Array("--B--\r\n".utf8)
    }()

    static func formHead(_ path: String, length: Int, token: String?) -> String {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=B"
        head += "\r\nContent-Length: \(length)"
        if let token { head += "\r\nAuthorization: Bearer \(token)" }
        return head
    }

    @Test func halfAMillionEmptyPartsWithoutATokenAre401AndHealthAnswersMeanwhile() async throws {
        let running = try Running()
        let (client, path, body) = (running.client, running.proofPath, Self.emptyParts)
        // Two such forms in flight, each pushed to its end, as in the finding.
        let attack = Task.detached {
            try await OwnThread.run {
                try onThreads(2) { _ in
                    try client.exchange(Self.formHead(path, length: body.count, token: nil), bodySize: body.count) {
                        Array(body[$0..<$0 + $1])
                    }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let health = try await OwnThread.run { try client.get("/health", timeout: 10) }
        #expect(health.status == 200)
        #expect(health.seconds < 2, "GET /health took \(health.seconds) s while two forms were in flight")
        for answer in try await attack.value {
            #expect(answer.status == 401, "\(answer.body)")
            #expect(answer.seconds < 10, "the 401 took \(answer.seconds) s")
        }
    }

    @Test func halfAMillionEmptyPartsWithATokenAreRefusedQuickly() async throws {
        let running = try Running()
        let (client, body) = (running.client, Self.emptyParts)
        let head = Self.formHead(running.proofPath, length: body.count, token: running.token)
        let answer = try await OwnThread.run {
            try client.exchange(head, bodySize: body.count, timeout: 90) { Array(body[$0..<$0 + $1]) }
        }
        #expect(answer.status == 400)
        #expect(answer.body.contains("more than 16 parts"), "\(answer.body)")
        #expect(answer.seconds < 10, "the 400 took \(answer.seconds) s")
        let health = try await OwnThread.run { try client.get("/health", timeout: 10) }
        #expect(health.status == 200 && health.seconds < 2)
    }

    @Test func aHundredUploadsOf25MiBWithoutATokenKeepTheServerSmall() async throws {
        let running = try Running()
        let (client, path) = (running.client, running.proofPath)
        let size = 25 * 1024 * 1024
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: \(size)"
        let answers = try await OwnThread.run {
            try onThreads(100) { _ in try client.exchange(head, bodySize: size, timeout: 120) }
        }
        let memory = try running.memory()
        #expect(memory.peak < 200, "the server peaked at \(memory.peak) MB resident (now \(memory.now) MB)")
        // Each got its 401, unless the server closed the connection first (it needs not read the rest).
        #expect(answers.allSatisfy { $0.status == 401 || $0.status == nil })
        #expect(answers.contains { $0.status == 401 })
    }

    /// One signed-in account sending many 25 MiB proofs at once: only `--photo-uploads` bodies are
    /// held at a time (at most the account's own share of them), the others get 503 or 429 with
    /// Retry-After unread (before, 60 took the server to 784 MB).
    @Test func manySignedInUploadsOf25MiBHoldOnlyTheirPlacesInMemory() async throws {
        let running = try Running(["--photo-uploads", "2"])
        let (client, path, token) = (running.client, running.proofPath, running.token)
        let size = 25 * 1024 * 1024
        let head =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: \(size)"
            + "\r\nAuthorization: Bearer \(token)"
        let answers = try await OwnThread.run {
            try onThreads(24) { _ in try client.exchange(head, bodySize: size, timeout: 120) }
        }
        let memory = try running.memory()
        #expect(memory.peak < 250, "the server peaked at \(memory.peak) MB resident (now \(memory.now) MB)")
        let statuses = answers.map { $0.status ?? 0 }
        // Those let in are judged (zeros are no JPEG: 400); the rest are turned away unread.
        #expect(statuses.contains { $0 == 503 || $0 == 429 }, "\(statuses)")
        #expect(statuses.allSatisfy { [400, 429, 503, 0].contains($0) }, "\(statuses)")
    }

    /// `serve --signups-per-hour` is the per-address sign-up limit: past it, 429 with Retry-After.
    @Test func signUpsPastTheServesLimitAre429() async throws {
        let running = try Running(["--signups-per-hour", "2", "--bcrypt-cost", "4"])
        let client = running.client
        let statuses = try await OwnThread.run {
            try (1...3).map { i in
                try client.postJSON(
                    "/api/auth/signup", #"{"email": "s\#(i)@example.com", "password": "a long password"}"#
                ).status ?? 0
            }
        }
        #expect(statuses == [201, 201, 429])
    }

    /// A Content-Length past `Int.max` (the HTTP parser takes up to 2^64 - 1) was read as no length:
    /// the request waited for its body, unanswered, until the 30 s body deadline closed it (an
    /// outsider's attack). It is 413 at once, like any other length over the limit.
    @Test(arguments: ["/api/metrics", "proof"])
    func aContentLengthTooLongForAnIntIs413AtOnce(route: String) async throws {
        let running = try Running()
        let path = route == "proof" ? running.proofPath : route
        let type = route == "proof" ? "image/jpeg" : "text/csv"
        let connection = try RawConnection(port: RawConnection.port(of: running.server.address))
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(running.token)\r\n"
                + "Content-Type: \(type)\r\nContent-Length: 10000000000000000000\r\n\r\n")
        // Well inside the 30 s body deadline that answered nothing before.
        let answer = try await OwnThread.run { try connection.response(within: 20) }
        #expect(answer.head.hasPrefix("HTTP/1.1 413"), "\(answer.head)")
    }

    @Test func aChunkedJSONBodyOverItsLimitIs413AndNothingIsStored() async throws {
        let running = try Running()
        let client = running.client
        var json = Array(#"{"name": ""#.utf8)
        json += [UInt8](repeating: UInt8(ascii: "a"), count: 64 * 1024 + 1 - json.count - 2) + Array(#""}"#.utf8)
        #expect(json.count == 64 * 1024 + 1)
        let chunked = RawHTTPClient.chunked(json, size: 4096)
        for token in [running.token, nil] {
            var head = "POST /api/habits HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            head += "\r\nTransfer-Encoding: chunked"
            if let token { head += "\r\nAuthorization: Bearer \(token)" }
            let answer = try await OwnThread.run {
                try client.exchange(head, bodySize: chunked.count) { Array(chunked[$0..<$0 + $1]) }
            }
            #expect(answer.status == (token == nil ? 401 : 413), "\(answer.body)")
        }
        let habits = try await OwnThread.run { try client.get("/api/habits", token: running.token) }
        #expect(habits.body.components(separatedBy: "\"name\"").count == 2, "\(habits.body)")
    }
}
