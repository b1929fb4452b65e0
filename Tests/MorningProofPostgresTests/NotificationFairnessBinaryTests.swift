import Foundation
import MorningProofCore
import MorningProofTestSupport
import NotificationTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A TCP listener on 127.0.0.1 that never accepts: the kernel completes the handshakes of its
/// backlog and nobody ever answers, as an endpoint that accepts and hangs.
final class DeadEndpoint {
    let port: Int
    private let socket: Int32

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 1024) == 0 else {
            close(fd)
            throw TestFailure("bind or listen: \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}

/// Issue 38's third break, against the built server: one account with 200 habits due and a
/// webhook that never answers must not delay another account's reminder past a few seconds.
@Suite(.serialized) struct NotificationFairnessBinaryTests {
    /// A server (`serve`, a pass every second, local targets allowed) on `engine`'s database.
    static func withServer(_ engine: Engine, _ body: (ServerProcess) async throws -> Void) async throws {
        let common = [
            "serve", "--port", "0", "--bcrypt-cost", "4", "--notify-interval", "1", "--allow-local-notify-targets",
        ]
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mp-fair-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try ServerProcess(common + ["--db", directory.appendingPathComponent("db.sqlite").path])
            try await body(server)
            _ = server.stop()
        case .postgres:
            try await TestPostgres.withDatabase { url in
                let server = try ServerProcess(common + ["--database-url", PhoneNotificationTests.databaseURL(url)])
                try await body(server)
                _ = server.stop()
            }
        }
    }

    /// "HH:MM" of `instant` in `clock`'s zone.
    static func wallClock(_ instant: Date, _ clock: DayClock) -> String {
        let local = clock.wallClock(at: instant)
        return String(format: "%02d:%02d", local.seconds / 3600, local.seconds % 3600 / 60)
    }

    @Test(arguments: Engine.available) func twoHundredRemindersOnADeadWebhookDoNotDelayAnotherAccount(engine: Engine)
        async throws
    {
        let dead = try DeadEndpoint()
        let receiver = try await FakeHookReceiver.start()
        defer { Task { await receiver.stop() } }
        // A zone where it is about noon now, so that a minute ago and the next minutes are today.
        let now = Date()
        let offset =
            12 - Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: now).hour!
        let zone = offset >= 0 ? "Etc/GMT-\(offset)" : "Etc/GMT+\(-offset)"
        let clock = try #require(DayClock(zoneIdentifier: zone))
        try await Self.withServer(engine) { server in
            func signUp(_ email: String) async throws -> String {
                let answer = try await PhoneNotificationTests.send(
                    "POST", "\(server.address)/api/auth/signup",
                    json: ["email": email, "password": "correct horse", "timezone": zone])
                return try #require(answer.json["token"] as? String, "\(answer)")
            }
            // Account A: 200 habits whose reminder was due a minute ago, then the dead webhook.
            let ada = try await signUp("ada@example.com")
            let due = Self.wallClock(Date().addingTimeInterval(-60), clock)
            for n in 0..<200 {
                let habit = try await PhoneNotificationTests.send(
                    "POST", "\(server.address)/api/habits", token: ada, json: ["name": "Chore \(n)", "remindAt": due])
                #expect(habit.status == 201, "\(habit)")
            }
            let hook = try await PhoneNotificationTests.send(
                "PUT", "\(server.address)/api/notifications/channels", token: ada,
                json: ["webhook": ["url": "http://127.0.0.1:\(dead.port)/hook"]])
            #expect(hook.status == 200, "\(hook)")
            // Account B: one habit whose reminder comes at the first whole minute at least 15 s away,
            // when the passes are well into A's deliveries.
            let bob = try await signUp("bob@example.com")
            let bobsTime = Date(
                timeIntervalSince1970: (Date().addingTimeInterval(15).timeIntervalSince1970 / 60).rounded(.up) * 60)
            let bed = try await PhoneNotificationTests.send(
                "POST", "\(server.address)/api/habits", token: bob,
                json: ["name": "Make bed", "remindAt": Self.wallClock(bobsTime, clock)])
            #expect(bed.status == 201, "\(bed)")
            let bobsHook = try await PhoneNotificationTests.send(
                "PUT", "\(server.address)/api/notifications/channels", token: bob,
                json: ["webhook": ["url": receiver.url("/hook/bob")]])
            #expect(bobsHook.status == 200, "\(bobsHook)")
            // Wait for it until a minute past its time, to say how late it was when it is late.
            while Date() < bobsTime.addingTimeInterval(60),
                !receiver.requests.contains(where: { $0.path == "/hook/bob" })
            {
                try await Task.sleep(for: .milliseconds(100))
            }
            let late = Date().timeIntervalSince(bobsTime)
            let arrived = receiver.requests.contains { $0.path == "/hook/bob" }
            print("\(engine): B's reminder \(arrived ? "came" : "had not come") \(late) s after its time")
            #expect(
                arrived && late <= 5,
                "B's reminder: \(arrived ? "arrived \(late) s" : "not arrived \(late) s") after its time")
        }
    }
}
