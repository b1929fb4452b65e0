import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Two devices of one account saving, at the same moment, one the ntfy topic and the other the
/// webhook: each save changes only its own channel, so both are kept, on both engines (one of the
/// two used to be lost: each save read both channels, then wrote both back).
@Suite struct ChannelsSavedAtOnceTests {
    static let rounds = 40

    @Test(arguments: Engine.available) func ntfyAndAWebhookSavedAtOnceAreBothKept(engine: Engine) async throws {
        try await engine.withStore(file: true) { store in
            let ada = store.scoped(to: try await Fixture.account(store, "ada@example.com").id)
            let service = NotificationChannelService(store: ada, delivery: UnconfiguredDelivery())
            var lost: [Int] = []
            for round in 0..<Self.rounds {
                try await service.removeChannels()
                let ntfy = NtfyChannel(url: "https://ntfy.example/\(round)")
                let webhookURL = "https://hooks.example/\(round)"
                async let phone = service.setChannels(.init(ntfy: .set(ntfy)))
                async let laptop = service.setChannels(.init(webhookURL: .set(webhookURL)))
                let answers = try await (phone, laptop)
                #expect(answers.0.channels.ntfy == ntfy && answers.1.channels.webhook?.url == webhookURL)
                let stored = try await service.channels()
                if stored.ntfy != ntfy || stored.webhook?.url != webhookURL { lost.append(round) }
            }
            #expect(lost.isEmpty, "a channel was lost in rounds \(lost)")
        }
    }
}
