import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Where one account's notifications go: its browsers' push subscriptions, its ntfy topic and
/// webhook; the test message that checks them; and the list of the events of the last days.
/// Every rule of what may be stored is `ChannelRules`'; delivery is the injected `ChannelDelivery`.
public struct NotificationChannelService: Sendable {
    public let store: any NotificationChannelStore & NotificationStore
    public let delivery: any ChannelDelivery
    public let rules: ChannelRules
    /// Shared by every request of the process: one test message per account per interval.
    public let testLimit: TestMessageLimit

    /// The days `notifications(days:)` may reach back.
    public static let listDays = 1...90

    public init(
        store: any NotificationChannelStore & NotificationStore, delivery: any ChannelDelivery,
        rules: ChannelRules = ChannelRules(), testLimit: TestMessageLimit = TestMessageLimit()
    ) {
        self.store = store
        self.delivery = delivery
        self.rules = rules
        self.testLimit = testLimit
    }

    /// A change of the ntfy topic and webhook: each kept, removed or set.
    public struct Change: Sendable {
        public typealias Setting<Value: Sendable> = ChannelSetting<Value>

        public var ntfy: Setting<NtfyChannel>
        /// The webhook's URL: its secret is the server's to make.
        public var webhookURL: Setting<String>

        public init(ntfy: Setting<NtfyChannel> = .keep, webhookURL: Setting<String> = .keep) {
            self.ntfy = ntfy
            self.webhookURL = webhookURL
        }
    }

    public func channels() async throws -> AccountChannels {
        try await store.notificationChannels()
    }

    /// Saves a browser's subscription (checked by `ChannelRules`); past `ChannelRules.maxSubscriptions`
    /// the account's oldest ones are dropped, so a browser that subscribes anew always can.
    public func subscribe(_ subscription: PushSubscription, at now: Date) async throws {
        let checked = try rules.subscription(subscription)
        try refuseTarget(checked.endpoint, field: "endpoint")
        if let why = delivery.refusal(ofKeys: checked) {
            throw MorningProofError(.usage, "\"keys\" cannot be encrypted to: \(why)")
        }
        try await store.savePushSubscription(checked, at: now)
        let saved = try await store.notificationChannels().pushSubscriptions
        for old in saved.dropLast(ChannelRules.maxSubscriptions) where old.endpoint != subscription.endpoint {
            try await store.removePushSubscription(endpoint: old.endpoint)
        }
    }

    /// Removes the account's subscription with this endpoint: not found when it has none (another
    /// account's is not its to remove).
    public func unsubscribe(endpoint: String) async throws {
        guard ChannelRules.couldBeStored(endpoint), try await store.removePushSubscription(endpoint: endpoint) else {
            throw MorningProofError(
                .notFound, code: "not_found", "no push subscription of this account has that endpoint")
        }
    }

    /// Applies `change` and returns the channels, with the webhook's secret when this change made
    /// one (a new webhook, or a new URL): the only time it is shown. The same URL keeps its secret.
    /// Only the channels `change` names change, in one step of the store: another device's change
    /// of the other channel at the same moment stays.
    public func setChannels(_ change: Change) async throws -> (channels: AccountChannels, newSecret: String?) {
        var ntfy = ChannelSetting<NtfyChannel>.keep
        switch change.ntfy {
        case .keep: break
        case .remove: ntfy = .remove
        case .set(let channel):
            let url = try rules.targetURL(channel.url, field: "ntfy.url")
            try refuseTarget(url, field: "ntfy.url")
            ntfy = .set(NtfyChannel(url: url, token: try channel.token.map(rules.ntfyToken)))
        }
        var webhook = ChannelSetting<WebhookChannel>.keep
        var candidateSecret: String?
        switch change.webhookURL {
        case .keep: break
        case .remove: webhook = .remove
        case .set(let url):
            let checked = try rules.targetURL(url, field: "webhook.url")
            try refuseTarget(checked, field: "webhook.url")
            let secret = ChannelRules.newWebhookSecret()
            webhook = .set(WebhookChannel(url: checked, secret: secret))
            candidateSecret = secret
        }
        let stored = try await store.changeChannels(ntfy: ntfy, webhook: webhook)
        var channels = try await store.notificationChannels()
        channels.ntfy = stored.ntfy
        channels.webhook = stored.webhook
        // The store keeps the secret a webhook of the same URL had: this one is new only when stored.
        let newSecret = candidateSecret.flatMap { stored.webhook?.secret == $0 ? $0 : nil }
        return (channels, newSecret)
    }

    /// Refuses (422) a target the delivery would never send to, such as `https://127.1/`.
    private func refuseTarget(_ url: String, field: String) throws {
        if let why = delivery.refusal(ofTarget: url) {
            throw MorningProofError(.refused, code: "target_refused", "\"\(field)\" is refused: \(why)")
        }
    }

    /// Removes the ntfy topic and the webhook (push subscriptions stay: each is its browser's).
    public func removeChannels() async throws {
        try await store.setChannels(ntfy: nil, webhook: nil)
    }

    /// Sends a test message to every channel of the account and returns what each did; a push
    /// subscription its service says is gone is deleted. Refused (409) with no channel at all, and
    /// (429) within `TestMessageLimit.interval` of the account's last test, counted on `realNow`.
    public func sendTest(accountID: Int64, clock: DayClock, now: Date, realNow: Date) async throws -> [ChannelResult] {
        let channels = try await store.notificationChannels()
        guard !channels.isEmpty else {
            throw MorningProofError(
                .conflict, code: "no_channels",
                "this account has no notification channel yet: subscribe a browser (POST /api/push/subscriptions) "
                    + "or set ntfy or a webhook (PUT /api/notifications/channels)")
        }
        try testLimit.admit(accountID, at: realNow)
        let event = NotificationEvent(
            event: .test, habit: "", day: clock.day(at: now),
            message: "MorningProof test notification: this channel works.",
            at: NotificationEvent.timestamp(now, in: clock))
        let results = await delivery.deliver(event, to: channels)
        for result in results where result.channel == .webPush && result.outcome == .gone {
            try await store.removePushSubscription(endpoint: result.target)
        }
        return results
    }

    /// The account's notifications of the last `days` days, today included, newest day first.
    public func notifications(days: Int, clock: DayClock, now: Date) async throws -> [StoredNotification] {
        guard Self.listDays.contains(days) else {
            throw MorningProofError(
                .usage,
                "\"days\" must be a whole number from \(Self.listDays.lowerBound) to \(Self.listDays.upperBound)")
        }
        return try await store.notifications(since: clock.day(at: now).adding(days: -(days - 1)))
    }
}

/// One test message per account per `interval`, in this process (a test sends to every channel of
/// the account: a loop of them would make the server a sender of unwanted messages).
public final class TestMessageLimit: Sendable {
    public let interval: TimeInterval
    private let lastSent = Locked([Int64: Date]())

    public init(interval: TimeInterval = 10) {
        self.interval = interval
    }

    /// Counts a test of `accountID` at `now`, or refuses it (429) within `interval` of the last one.
    func admit(_ accountID: Int64, at now: Date) throws {
        let wait: TimeInterval? = lastSent.withLock { sent in
            if let last = sent[accountID], now < last.addingTimeInterval(interval), now >= last {
                return last.addingTimeInterval(interval).timeIntervalSince(now)
            }
            // Forget what no longer limits anyone, so the table stays as small as the last interval's senders.
            sent = sent.filter { now.timeIntervalSince($0.value) < interval && now >= $0.value }
            sent[accountID] = now
            return nil
        }
        if let wait {
            throw MorningProofError(
                .tooManyRequests(retryAfter: max(1, Int(wait.rounded(.up)))), code: "too_many_tests",
                "a test message was sent less than \(Int(interval)) seconds ago; try again shortly")
        }
    }
}

/// What delivers nothing: every channel fails with "delivery not configured". The server's
/// default until a real sender is given (`ServerConfiguration.channelDelivery`).
public struct UnconfiguredDelivery: ChannelDelivery {
    public init() {}

    public func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        let targets =
            channels.pushSubscriptions.map { (ChannelKind.webPush, $0.endpoint) }
            + [
                channels.ntfy.map { (ChannelKind.ntfy, $0.url) },
                channels.webhook.map { (ChannelKind.webhook, $0.url) },
            ]
            .compactMap { $0 }
        return targets.map {
            ChannelResult(
                channel: $0.0, target: $0.1, outcome: .failed, error: "delivery not configured on this server")
        }
    }
}
