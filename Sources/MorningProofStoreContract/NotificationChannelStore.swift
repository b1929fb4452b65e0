import Foundation
import MorningProofCore

/// One account's notification channels (scoped like every account store).
public protocol NotificationChannelStore: AccountScopedStore {
    /// The account's channels: its push subscriptions (oldest first), ntfy topic and webhook.
    func notificationChannels() async throws -> AccountChannels
    /// Adds a push subscription, or replaces the keys of the account's one with the same endpoint.
    /// Another account's subscription with that endpoint moves to this one only when the keys are
    /// the same (the same browser, signed in to another account); otherwise nothing changes and
    /// `PushSubscription.takenElsewhere` is thrown: an endpoint learnt elsewhere takes nothing over.
    func savePushSubscription(_ subscription: PushSubscription, at instant: Date) async throws
    /// Removes the account's subscription with this endpoint; false when there was none.
    @discardableResult func removePushSubscription(endpoint: String) async throws -> Bool
    /// Sets (or, with nil, removes) the account's ntfy topic and webhook; both are replaced.
    func setChannels(ntfy: NtfyChannel?, webhook: WebhookChannel?) async throws
    /// Changes only the channels given as `.remove` or `.set` (`.keep` leaves one as stored), in one
    /// step: two changes made at once of different channels both stay. A webhook set to the URL it
    /// already has keeps its stored secret. Returns the ntfy topic and webhook as stored after.
    func changeChannels(ntfy: ChannelSetting<NtfyChannel>, webhook: ChannelSetting<WebhookChannel>) async throws
        -> StoredChannels
}

/// One channel of a change: kept as stored, removed, or set to a value.
public enum ChannelSetting<Value: Sendable>: Sendable {
    case keep, remove, set(Value)

    /// The value to store when set, else nil (a row inserted for a kept channel holds nothing).
    public var value: Value? {
        if case .set(let value) = self { value } else { nil }
    }

    /// Whether the stored value stays.
    public var keeps: Bool {
        if case .keep = self { true } else { false }
    }
}

/// An account's ntfy topic and webhook as stored.
public struct StoredChannels: Sendable, Equatable {
    public var ntfy: NtfyChannel?
    public var webhook: WebhookChannel?

    /// From a stored row's four columns: a channel is set when its URL is.
    public init(ntfyURL: String?, ntfyToken: String?, webhookURL: String?, webhookSecret: String?) {
        ntfy = ntfyURL.map { NtfyChannel(url: $0, token: ntfyToken) }
        if let webhookURL, let webhookSecret { webhook = WebhookChannel(url: webhookURL, secret: webhookSecret) }
    }
}
