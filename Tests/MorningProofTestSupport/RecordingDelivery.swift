import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// Stands in for the HTTP sender: records each event and answers with the outcome given per target.
public final class RecordingDelivery: ChannelDelivery {
    /// Every event sent, with the channels it went to, in order.
    public let sent = Locked([(NotificationEvent, AccountChannels)]())
    let outcomes: [String: ChannelResult.Outcome]

    /// `outcomes`: what a target (an endpoint or URL) answers; delivered when not given.
    public init(outcomes: [String: ChannelResult.Outcome] = [:]) {
        self.outcomes = outcomes
    }

    public func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        sent.withLock { $0.append((event, channels)) }
        let targets =
            channels.pushSubscriptions.map { (ChannelKind.webPush, $0.endpoint) }
            + (channels.ntfy.map { [(ChannelKind.ntfy, $0.url)] } ?? [])
            + (channels.webhook.map { [(ChannelKind.webhook, $0.url)] } ?? [])
        return targets.map { ChannelResult(channel: $0.0, target: $0.1, outcome: outcomes[$0.1] ?? .delivered, status: 201) }
    }
}
