import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofStoreContract
import MorningProofTestSupport
import NotificationTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The phone loop across processes on one PostgreSQL database: two `notify --once` at the same
/// instant deliver each reminder once; a server pair whose passes run every second delivers a
/// phone's 07:30-style reminder and its goal-met message once each, to a fake push service that
/// checks the VAPID JWT and decrypts the RFC 8291 body.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .serialized)
struct PhoneNotificationTests {
    static func databaseURL(_ url: PostgresURL) -> String { "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)" }

    @Test func twoNotifyProcessesAtOnceDeliverEachReminderOnce() async throws {
        let receiver = try await FakeHookReceiver.start()
        defer { Task { await receiver.stop() } }
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 2)
            try await store.migrate()
            let people = 30
            let secrets = try await store.whileRunning {
                var secrets: [String: String] = [:]
                for n in 0..<people {
                    let profile = try #require(
                        try await store.createAccount(
                            email: "p\(n)@example.com", passwordHash: "x", timeZone: "America/New_York",
                            at: Date(timeIntervalSince1970: 1_767_261_600)))
                    let person = store.scoped(to: profile.id)
                    _ = try await person.addHabit(
                        Habit(
                            name: "Make bed", kind: .manual, remindAt: 7 * 60 + 30, createdDay: LocalDay("2026-01-01")!,
                            createdAt: Date(timeIntervalSince1970: 1_767_261_600)))
                    try await person.setChannels(
                        ntfy: nil, webhook: WebhookChannel(url: receiver.url("/hook/\(profile.id)"), secret: "s\(n)"))
                    secrets["/hook/\(profile.id)"] = "s\(n)"
                }
                return secrets
            }
            let arguments = [
                "notify", "--once", "--now", "2026-05-04T07:31:00-04:00", "--allow-local-notify-targets", "--json",
                "--database-url", Self.databaseURL(url),
            ]
            // Each waits on a thread of its own: the receiver in this process needs the shared pool.
            async let first = OwnThread.run { try BuiltBinary.run("morningproof-server", arguments) }
            async let second = OwnThread.run { try BuiltBinary.run("morningproof-server", arguments) }
            let (a, b) = try await (first, second)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            let delivered = [a.stdout, b.stdout].compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }.compactMap { $0["delivered"] as? Int }
            #expect(delivered.reduce(0, +) == people, "\(a.stdout) \(b.stdout)")
            let paths = receiver.requests.map(\.path)
            #expect(paths.count == people && Set(paths).count == people)
            #expect(receiver.requests.allSatisfy { FakeHookReceiver.signatureIsValid($0, secret: secrets[$0.path] ?? "") })
        }
    }

    /// One request to a server: its status and body as JSON.
    static func send(_ method: String, _ url: String, token: String? = nil, json: Any? = nil, body: Data? = nil)
        async throws -> (status: Int, json: [String: Any])
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try body ?? json.map { try JSONSerialization.data(withJSONObject: $0) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let decoded = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, decoded)
    }

    /// Waits up to `seconds` for `condition`, checking every 100 ms.
    static func eventually(within seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return condition()
    }

    /// The issue's "done when": a phone tapped "Notify me" (its subscription stored through one
    /// server); both servers run their pass every second; the reminder due now and the goal met by
    /// the steps the phone then uploads each reach the phone once, signed and encrypted.
    @Test func aServerPairDeliversTheReminderAndTheGoalOnceEach() async throws {
        let push = try await FakePushService.start()
        defer { Task { await push.stop() } }
        // A zone where it is about noon now, so that a reminder a minute ago is today's.
        let now = Date()
        let offset = 12 - Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: now).hour!
        let zone = offset >= 0 ? "Etc/GMT-\(offset)" : "Etc/GMT+\(-offset)"
        let clock = try #require(DayClock(zoneIdentifier: zone))
        let local = clock.wallClock(at: now.addingTimeInterval(-60))
        let remindAt = String(format: "%02d:%02d", local.seconds / 3600, local.seconds % 3600 / 60)
        try await TestPostgres.withDatabase { url in
            let arguments = [
                "serve", "--port", "0", "--bcrypt-cost", "4", "--notify-interval", "1", "--allow-local-notify-targets",
                "--database-url", Self.databaseURL(url),
            ]
            let first = try ServerProcess(arguments)
            let second = try ServerProcess(arguments)
            let signUp = try await Self.send(
                "POST", "\(first.address)/api/auth/signup",
                json: ["email": "ada@example.com", "password": "correct horse", "timezone": zone])
            let token = try #require(signUp.json["token"] as? String, "\(signUp)")
            let phone = push.subscribe("ada")
            let subscribed = try await Self.send(
                "POST", "\(second.address)/api/push/subscriptions", token: token,
                json: ["endpoint": phone.endpoint, "expirationTime": NSNull(), "keys": ["p256dh": phone.p256dh, "auth": phone.auth]])
            #expect(subscribed.status == 201, "\(subscribed)")
            let bed = try await Self.send(
                "POST", "\(first.address)/api/habits", token: token, json: ["name": "Make bed", "remindAt": remindAt])
            #expect(bed.status == 201, "\(bed)")
            #expect(try await Self.eventually(within: 15) { push.messages().count >= 1 })
            // More passes of both servers bring nothing more.
            try await Task.sleep(for: .seconds(2.5))
            #expect(push.messages().map(\.title) == ["Reminder: Make bed"])

            let walk = try await Self.send(
                "POST", "\(second.address)/api/habits", token: token, json: ["name": "Walk", "metric": "steps", "atLeast": 8000])
            #expect(walk.status == 201, "\(walk)")
            let today = clock.day(at: now)
            let upload = """
                {"data": {"metrics": [{"name": "step_count", "units": "count",
                  "data": [{"qty": 8412, "date": "\(today) 00:00:00 \(offset >= 0 ? "+" : "-")\(String(format: "%02d", abs(offset)))00",
                            "source": "Ada's iPhone"}]}]}}
                """
            let uploaded = try await Self.send("POST", "\(first.address)/api/metrics", token: token, body: Data(upload.utf8))
            #expect(uploaded.status == 200, "\(uploaded)")
            #expect(try await Self.eventually(within: 15) { push.messages().count >= 2 })
            try await Task.sleep(for: .seconds(2.5))
            let messages = push.messages()
            #expect(messages.map(\.title) == ["Reminder: Make bed", "Goal met: Walk"])
            #expect(messages.last?.body.contains("8,412 steps today") == true, "\(messages)")
            let problems = push.received().flatMap(\.problems)
            #expect(problems.isEmpty, "\(problems)")
            #expect(first.stop() == 0 && second.stop() == 0)
        }
    }
}
