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
}
