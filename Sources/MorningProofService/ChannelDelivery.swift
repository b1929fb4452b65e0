import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Which channel a delivery went to.
public enum ChannelKind: String, Sendable, Codable, CaseIterable {
    case webPush = "webPush"
    case ntfy
    case webhook
}

/// What one delivery to one channel did.
public struct ChannelResult: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Codable {
        /// The endpoint took the message (a 2xx answer).
        case delivered
        /// The push service says the subscription is gone (404 or 410): it is to be deleted.
        case gone
        /// Anything else: refused target, timeout, connection error, another status.
        case failed
    }

    public var channel: ChannelKind
    /// The push subscription's endpoint, the ntfy or webhook URL.
    public var target: String
    public var outcome: Outcome
    /// The HTTP status, when an answer came.
    public var status: Int?
    /// Why it failed, one line, for a person (never a secret).
    public var error: String?

    public init(channel: ChannelKind, target: String, outcome: Outcome, status: Int? = nil, error: String? = nil) {
        self.channel = channel
        self.target = target
        self.outcome = outcome
        self.status = status
        self.error = error
    }
}

/// Sends one event to an account's channels (Web Push, ntfy, webhook). Implemented over HTTP by
/// the server; tests stand in for it. Never throws: each channel's result says what happened.
public protocol ChannelDelivery: Sendable {
    /// Delivers `event` to every channel of `channels`, concurrently, each bounded by the
    /// delivery's timeouts (5 s to connect, 10 s in all).
    func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult]

    /// The same, calling `firstDelivered` once, as soon as one channel has taken the event, while
    /// the others may still be answering: the notification pass marks its claim delivered there,
    /// so that a crash while a slow channel answers does not send the event again.
    func deliver(
        _ event: NotificationEvent, to channels: AccountChannels, firstDelivered: @escaping @Sendable () async -> Void
    ) async -> [ChannelResult]

    /// Why `target` (a push endpoint, an ntfy or webhook URL) is refused before it is stored, from
    /// what needs no DNS (an address literal that is not public, in any form a resolver reads); nil
    /// when it may be stored. Delivery checks it again after resolving.
    func refusal(ofTarget target: String) -> String?

    /// Why a browser's subscription keys cannot be encrypted to (`p256dh` not a point of P-256);
    /// nil when they can.
    func refusal(ofKeys subscription: PushSubscription) -> String?
}

extension ChannelDelivery {
    /// Calls `firstDelivered` once every channel has answered (a delivery that cannot tell sooner).
    public func deliver(
        _ event: NotificationEvent, to channels: AccountChannels, firstDelivered: @escaping @Sendable () async -> Void
    ) async -> [ChannelResult] {
        let results = await deliver(event, to: channels)
        if results.contains(where: { $0.outcome == .delivered }) { await firstDelivered() }
        return results
    }

    /// Nothing is refused by a delivery that sends nowhere (tests, an unconfigured server).
    public func refusal(ofTarget target: String) -> String? { nil }
    public func refusal(ofKeys subscription: PushSubscription) -> String? { nil }
}
