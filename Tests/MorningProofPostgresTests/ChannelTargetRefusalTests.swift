import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import NotificationDelivery
import NotificationTestSupport
import Testing

/// What an account may store as a channel when the server's real sender is behind the service:
/// an address literal that is not public, in the forms resolvers read, and a p256dh that is no
/// point of P-256, are refused before anything is stored (each used to be stored, and fail at
/// every delivery), on both engines.
@Suite struct ChannelTargetRefusalTests {
    static let loopbackForms = [
        "https://127.0.0.1/hook", "https://127.1/hook", "https://0x7f.1/hook", "https://017700000001/hook",
        "https://2130706433/hook", "https://[::ffff:7f00:1]/hook", "https://169.254.169.254/latest",
        "https://[fe80::1%25lo]/hook", "https://0/hook",
    ]

    static func withService(_ engine: Engine, _ body: (NotificationChannelService) async throws -> Void)
        async throws
    {
        try await PassFixture.with(engine) { fixture in
            let profile = try await Fixture.account(fixture.store, "ada@example.com", zone: "UTC")
            let sender = HTTPChannelSender(
                identity: VAPIDIdentity(privateKey: Data(repeating: 1, count: 32), contact: "mailto:ops@example.com"))
            do {
                try await body(NotificationChannelService(store: fixture.account(profile.id), delivery: sender))
            } catch {
                await sender.shutdown()
                throw error
            }
            await sender.shutdown()
        }
    }

    @Test(arguments: Engine.available) func localAddressLiteralsAreRefusedBeforeTheyAreStored(engine: Engine)
        async throws
    {
        try await Self.withService(engine) { service in
            let subscriber = TestPushSubscriber()
            for url in Self.loopbackForms {
                let refusals = [
                    await #expect(throws: MorningProofError.self, "\(url)") {
                        _ = try await service.setChannels(.init(webhookURL: .set(url)))
                    },
                    await #expect(throws: MorningProofError.self, "\(url)") {
                        _ = try await service.setChannels(.init(ntfy: .set(NtfyChannel(url: url))))
                    },
                    await #expect(throws: MorningProofError.self, "\(url)") {
                        try await service.subscribe(subscriber.subscription(endpoint: url), at: Date())
                    },
                ]
                #expect(refusals.allSatisfy { $0?.kind == .refused }, "\(url)")
            }
            let stored = try await service.channels()
            #expect(stored.isEmpty)
            // The refusal says why, naming the address and no path.
            do {
                _ = try await service.setChannels(.init(webhookURL: .set("https://0x7f.1/secret-path")))
            } catch let error as MorningProofError {
                #expect(error.description.contains("loopback") && !error.description.contains("secret-path"))
            }
            // Public ones are stored.
            _ = try await service.setChannels(.init(webhookURL: .set("https://8.8.8.8/hook")))
            try await service.subscribe(subscriber.subscription(endpoint: "https://push.example.net/1"), at: Date())
            let after = try await service.channels()
            #expect(after.webhook?.url == "https://8.8.8.8/hook" && after.pushSubscriptions.count == 1)
        }
    }

    /// 65 bytes starting with 0x04 that are not a point of P-256 (and the compressed form): refused
    /// with a message, nothing stored.
    @Test(arguments: Engine.available) func aKeyThatIsNoPointOfTheCurveIsRefused(engine: Engine) async throws {
        try await Self.withService(engine) { service in
            let auth = Base64URL.encode(Data(repeating: 9, count: 16))
            let offCurve = Base64URL.encode(Data([4] + [UInt8](repeating: 7, count: 64)))
            let compressed = Base64URL.encode(TestPushSubscriber().privateKey.publicKey.compressedRepresentation)
            for key in [offCurve, compressed] {
                let subscription = PushSubscription(endpoint: "https://push.example.net/1", p256dh: key, auth: auth)
                await #expect(throws: MorningProofError.self) { try await service.subscribe(subscription, at: Date()) }
            }
            let stored = try await service.channels()
            #expect(stored.pushSubscriptions.isEmpty)
        }
    }
}
