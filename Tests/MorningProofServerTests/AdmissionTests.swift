import Foundation
import Glibc
import MorningProofCore
import MorningProofTestSupport
import NIOCore
import Testing

@testable import MorningProofServer

/// What one account or a client without a token can hold of the built server (issue 38, points
/// 5 to 7): upload places, a connection with a body that drips, the password hashing of sign-ins.
/// Bounds are counts and the order of events, or CPU time measured against a baseline in the same
/// run: never a speed that only an idle machine has.
@Suite("morningproof-server: what one account or a stranger can hold", .serialized)
struct AdmissionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "morningproof-admission-\(UUID().uuidString)")
    var database: String { folder.appendingPathComponent("data.sqlite").path }
    var uploads: URL { folder.appendingPathComponent("uploads") }

    /// The built server on a new SQLite database with `options`, its temporary files under `uploads`.
    private func server(_ options: [String]) throws -> (process: ServerProcess, port: Int) {
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let process = try ServerProcess(
            ["--db", database, "--port", "0"] + options, environment: ["TMPDIR": uploads.path])
        return (process, RawConnection.port(of: process.address))
    }

    /// One exchange on a connection of its own from `source`: the status, the head and the body.
    static func send(
        _ port: Int, _ method: String, _ path: String, token: String? = nil, type: String = "application/json",
        body: String = "", from source: String = "127.0.0.1", within seconds: Double = 60
    ) throws -> (status: Int, head: String, body: String) {
        let connection = try RawConnection(port: port, from: source)
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        connection.send(
            "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\(authorization)Content-Type: \(type)\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        let (head, bytes) = try connection.response(within: seconds)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, String(decoding: bytes, as: UTF8.self))
    }

    /// Signs up `email` (from its own address: sign-ups are limited per address) and gives its token.
    static func signUp(_ port: Int, _ email: String, from source: String) throws -> String {
        let reply = try send(
            port, "POST", "/api/auth/signup",
            body: "{\"email\": \"\(email)\", \"password\": \"correct horse\", \"timezone\": \"UTC\"}", from: source)
        guard reply.status == 201,
            let token = reply.body.split(separator: "\"").drop(while: { $0 != "token" }).dropFirst(2).first
        else { throw TestFailure("sign-up of \(email): \(reply.status) \(reply.body)") }
        return String(token)
    }

    static func retryAfter(_ head: String) -> Int? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
            .flatMap { Int($0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// The CPU time the process `pid` has used, user and system, in seconds.
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
        guard let end = stat.lastIndex(of: ")") else { throw TestFailure("/proc/\(pid)/stat: \(stat)") }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static let csvHead = "Content-Type: text/csv\r\n"

    /// An upload that drips (issue 38, point 6): account A opens two, the second is refused at once
    /// with 429 and `Retry-After` without taking a place, and account B's upload is admitted at once.
    @Test func oneAccountHoldsOneUploadPlaceAndAnotherIsAdmitted() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try server(["--metrics-uploads", "2"])
        let uploads = uploads
        try await OwnThread.run {
            let ada = try Self.signUp(port, "ada@example.com", from: "127.0.0.2")
            let bob = try Self.signUp(port, "bob@example.com", from: "127.0.0.3")
            func dripping() throws -> RawConnection {
                let connection = try RawConnection(port: port)
                connection.send(
                    "POST /api/metrics HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada)\r\n" + Self.csvHead
                        + "Content-Length: 5000\r\n\r\ndate,metric,value\n")
                return connection
            }
            func placesHeld() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: uploads.path).count }
            var first: RawConnection? = try dripping()
            for _ in 0..<100 where try placesHeld() == 0 { usleep(100_000) }
            #expect(try placesHeld() == 1, "ada's first upload holds a place")
            let second = try dripping()
            let refused = try? second.response(within: 10)
            let status = refused.map { String($0.head.prefix(12)) } ?? "no answer"
            let held = try placesHeld()
            #expect(status == "HTTP/1.1 429", "ada's second upload: \(status); places held \(held)")
            #expect(refused.flatMap { Self.retryAfter($0.head) } != nil, "\(refused?.head ?? "")")

            let csv = "date,metric,value\n2026-03-07,steps,100\n"
            let admitted = try Self.send(
                port, "POST", "/api/metrics", token: bob, type: "text/csv", body: csv, within: 30)
            #expect(admitted.status == 200, "bob's upload beside ada's: \(admitted.status) \(admitted.body)")

            // Ada's first upload ends (the client hangs up): her next one is admitted.
            first = nil
            for _ in 0..<300 where try placesHeld() > 0 { usleep(100_000) }
            let again = try Self.send(port, "POST", "/api/metrics", token: ada, type: "text/csv", body: csv, within: 30)
            #expect(again.status == 200, "ada's upload once hers ended: \(again.status) \(again.body)")
            withExtendedLifetime(first) {}
        }
        #expect(server.stop() == 0)
    }

    /// A body that never stalls for the body timeout but arrives below the floor rate is cut once
    /// its window's worth of time has passed; one that arrives faster than the floor is read.
    @Test func aBodyBelowTheFloorRateIsCut() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try server([
            "--min-body-rate", "1000", "--body-rate-window", "2", "--body-timeout", "30", "--request-timeout", "60",
        ])
        try await OwnThread.run {
            let head =
                "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: 30000\r\n\r\n"
            // 40 bytes a second, a byte every 25 ms: never a pause near the body timeout.
            let slow = try RawConnection(port: port)
            slow.send(head)
            let started = Date()
            var closed = false
            while !closed && Date().timeIntervalSince(started) < 20 {
                closed = !slow.send(" ") || slow.isClosed(within: 0.025)
            }
            let seconds = Date().timeIntervalSince(started)
            #expect(closed, "a body at 40 B/s with a floor of 1000 B/s is still open after \(seconds) s")
            #expect(seconds >= 1.5, "cut after \(seconds) s, before its 2 s window")

            // 4,000 bytes a second over 5 s (a 20,000-byte body): read whole, and answered.
            let fast = try RawConnection(port: port)
            fast.send(head.replacingOccurrences(of: "30000", with: "20000"))
            let body = Array(
                ("{\"email\": \"a@example.com\", \"password\": \"" + String(repeating: "x", count: 19_958) + "\"}").utf8
            )
            #expect(body.count == 20_000)
            for start in stride(from: 0, to: body.count, by: 400) {
                #expect(fast.send(Array(body[start..<min(body.count, start + 400)])), "cut at byte \(start)")
                usleep(100_000)
            }
            let answer = try fast.response(within: 30)
            #expect(answer.head.hasPrefix("HTTP/1.1 4"), "\(answer.head)")
        }
        #expect(server.stop() == 0)
    }

    /// Sixty sign-ins for unknown emails at once from thirty addresses (issue 38, point 7): past the
    /// bound of the password hashing they are refused with `Retry-After`, without a hash (the CPU
    /// they cost is what the hashed ones cost, against a baseline measured first), and a person's
    /// sign-in meanwhile gets through.
    @Test func aFloodOfSignInsIsRefusedPastTheBoundWithoutHashing() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try server([])
        let pid = server.process.processIdentifier
        try await OwnThread.run {
            _ = try Self.signUp(port, "ada@example.com", from: "127.0.0.2")
            @Sendable func signIn(_ email: String, password: String = "correct horse", from source: String) throws -> (
                status: Int, head: String, body: String
            ) {
                try Self.send(
                    port, "POST", "/api/auth/login", body: "{\"email\": \"\(email)\", \"password\": \"\(password)\"}",
                    from: source)
            }
            let before = try Self.cpuSeconds(of: pid)
            for index in 0..<3 {
                #expect(try signIn("baseline\(index)@example.com", from: "127.0.0.3").status == 401)
            }
            let perHash = (try Self.cpuSeconds(of: pid) - before) / 3

            let flooding = try Self.cpuSeconds(of: pid)
            let person = Locked<(status: Int, tries: Int, seconds: Double)?>(nil)
            let replies = try onThreads(61) { index -> (status: Int, head: String) in
                guard index == 60 else {
                    let reply = try signIn("nobody\(index)@example.com", from: "127.0.1.\(10 + index % 30)")
                    return (reply.status, reply.head)
                }
                // The person: after the flood has started, following Retry-After when refused.
                usleep(200_000)
                let started = Date()
                for tries in 1...20 {
                    let reply = try signIn("ada@example.com", from: "127.0.0.4")
                    if reply.status == 200 || Self.retryAfter(reply.head) == nil {
                        person.withLock { $0 = (reply.status, tries, Date().timeIntervalSince(started)) }
                        break
                    }
                    usleep(UInt32(1_000_000 * (Self.retryAfter(reply.head) ?? 1)))
                }
                return (0, "")
            }.dropLast()
            let used = try Self.cpuSeconds(of: pid) - flooding
            let hashed = replies.filter { $0.status == 401 }.count
            let refused = replies.filter { [429, 503].contains($0.status) }
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let bound = max(1, cores / 2) + max(4, 2 * cores)
            print(
                "sign-in flood: 60 unknown emails from 30 addresses: \(hashed) hashed, \(refused.count) refused; "
                    + "CPU \(used) s (a hash \(perHash) s); the person: \(String(describing: person.withLock { $0 }))")
            #expect(hashed + refused.count == 60, "\(replies.map(\.status))")
            #expect(refused.allSatisfy { Self.retryAfter($0.head) != nil })
            #expect(hashed <= 2 * bound, "\(hashed) of 60 hashed; the bound is \(bound) waiting or running")
            #expect(
                used <= Double(hashed + 3) * perHash * 1.5 + 1, "CPU \(used) s for \(hashed) hashes of \(perHash) s")
            #expect(person.withLock { $0 }?.status == 200, "\(String(describing: person.withLock { $0 }))")
        }
        #expect(server.stop() == 0)
    }

    /// Eight 49-megapixel photo proofs fill the CPU pool (issue 38, point 5): a sign-in meanwhile
    /// is answered before most of them, because password hashing has threads of its own. (Eight
    /// accounts send them: one account holds only its own share of the photo places.)
    @Test func aSignInIsAnsweredWhilePhotoProofsFillTheCPUPool() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, port) = try server([])
        let png = FlatPNG.make(width: 7_000, height: 7_000)
        try await OwnThread.run {
            let senders = try (0..<8).map { n -> (token: String, id: Int) in
                let heavy = try Self.signUp(port, "heavy\(n)@example.com", from: "127.0.0.\(10 + n)")
                let habit = try Self.send(
                    port, "POST", "/api/habits", token: heavy, body: #"{"name": "Make bed", "kind": "photo"}"#)
                let id = try #require(
                    habit.body.split(separator: ",").first { $0.contains("\"id\"") }?.split(separator: ":").last
                        .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, "\(habit.body)")
                return (heavy, id)
            }
            _ = try Self.signUp(port, "ada@example.com", from: "127.0.0.3")
            let done = Locked(0)
            let answered = Locked<(seconds: Double, proofsDone: Int, status: Int)?>(nil)
            _ = try onThreads(9) { index in
                guard index == 8 else {
                    let (heavy, id) = senders[index]
                    let connection = try RawConnection(port: port)
                    connection.send(
                        "POST /api/habits/\(id)/proof HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(heavy)\r\n"
                            + "Content-Type: image/png\r\nContent-Length: \(png.count)\r\n\r\n")
                    connection.send([UInt8](png))
                    _ = try connection.response(within: 300)
                    done.withLock { $0 += 1 }
                    return
                }
                sleep(1)
                let started = Date()
                let reply = try Self.send(
                    port, "POST", "/api/auth/login",
                    body: #"{"email": "ada@example.com", "password": "correct horse"}"#,
                    from: "127.0.0.4", within: 300)
                answered.withLock { $0 = (Date().timeIntervalSince(started), done.withLock { $0 }, reply.status) }
            }
            let seen = try #require(answered.withLock { $0 })
            print("sign-in beside 8 proofs of 49 MP: \(seen.seconds) s, \(seen.proofsDone) proofs done by then")
            #expect(seen.status == 200)
            #expect(seen.proofsDone <= 4, "the sign-in waited for \(seen.proofsDone) of 8 proofs (\(seen.seconds) s)")
        }
        #expect(server.stop() == 0)
    }
}

/// The floor rate of a request body, in the connection's state machine: each byte buys waiting
/// time, at most the window's, and a body that spends it all is past its deadline.
@Suite struct BodyRateFloorTests {
    let limits = ConnectionLimits(bodyTimeout: .seconds(30), minimumBodyRate: 1000, bodyRateWindow: .seconds(2))
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    /// A connection whose head arrived at `start`, then `bytes` each second for `seconds` seconds.
    func arriving(_ bytes: Int, everySecondFor seconds: Int) -> (ConnectionDeadline, NIODeadline) {
        var state = ConnectionDeadline(limits: limits, openedAt: start)
        state.headArrived(at: start)
        var now = start
        for _ in 0..<seconds {
            state.readRequested(at: now)
            now = now + .seconds(1)
            _ = state.bytesArrived(bytes, at: now)
        }
        state.readRequested(at: now)
        return (state, now)
    }

    @Test func aBodyBelowTheFloorIsPastItsDeadlineThoughBytesKeepComing() throws {
        let (state, now) = arriving(40, everySecondFor: 3)
        let deadline = try #require(state.deadline)
        #expect(deadline.reason == .bodyTooSlow && deadline.at <= now)
    }

    @Test func aBodyAboveTheFloorKeepsTheWindowsTimeAndNoMore() throws {
        let (state, now) = arriving(5000, everySecondFor: 10)
        let deadline = try #require(state.deadline)
        #expect(deadline.reason == .bodyTooSlow && deadline.at == now + .seconds(2))
    }

    @Test func noFloorLeavesTheBodyTimeout() throws {
        var state = ConnectionDeadline(
            limits: ConnectionLimits(bodyTimeout: .seconds(30), minimumBodyRate: 0), openedAt: start)
        state.headArrived(at: start)
        state.readRequested(at: start)
        #expect(state.deadline?.reason == .bodyStalled)
    }
}
