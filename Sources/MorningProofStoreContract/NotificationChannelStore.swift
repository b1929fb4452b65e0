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
}
