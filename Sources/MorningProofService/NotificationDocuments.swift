import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A stored notification as scripts and the web app see it (`notifications list --json`,
/// `GET /api/notifications`).
public struct NotificationJSON: Encodable, Sendable {
    public var day: String
    public var key: String
    public var event: String
    public var habit: String
    public var message: String?
    public var value: Double?
    public var target: Double?
    public var state: String
    public var attempts: Int
    public var lastError: String?
    public var claimedAt: String?
    public var deliveredAt: String?
    /// When a failed event is tried again (the claim rule's back-off); nil once delivered, while a
    /// pass holds it, or when the day's attempts ran out.
    public var retryAt: String?

    public init(_ record: StoredNotification, zone: TimeZone) {
        let event = NotificationEvent.decode(record.event)
        day = record.day.description
        key = record.key
        self.event = event?.event.rawValue ?? String(record.key.prefix { $0 != "/" })
        habit = event?.habit ?? ""
        message = event?.message
        value = event?.value
        target = event?.target
        state = record.state.rawValue
        attempts = record.attempts
        lastError = record.lastError
        claimedAt = record.claimedAt.map { ISOInstant.format($0, in: zone) }
        deliveredAt = record.deliveredAt.map { ISOInstant.format($0, in: zone) }
        retryAt =
            record.state == .failed
            ? record.claimedAt.flatMap {
                NotificationClaimRule.nextAttempt(
                    afterAttempts: record.attempts, claimedAt: $0, maxAttempts: NotificationClaimRule.maxAttemptsPerDay)
            }.map { ISOInstant.format($0, in: zone) } : nil
    }
}

/// An account's channels as the web app sees them (`GET /api/notifications/channels`): the ntfy
/// topic without its token, the webhook without its secret (shown once, when `secret` is given: the
/// answer to the change that made it), and each push subscription's endpoint and when it was saved.
public struct ChannelsJSON: Encodable, Sendable {
    public struct Ntfy: Encodable, Sendable {
        public var url: String
        public var hasToken: Bool
    }

    public struct Webhook: Encodable, Sendable {
        public var url: String
        public var secret: String?
    }

    public struct Push: Encodable, Sendable {
        public var endpoint: String
        public var createdAt: String?
    }

    public var ntfy: Ntfy?
    public var webhook: Webhook?
    public var push: [Push]

    public init(_ channels: AccountChannels, zone: TimeZone, newSecret: String? = nil) {
        ntfy = channels.ntfy.map { Ntfy(url: $0.url, hasToken: $0.token != nil) }
        webhook = channels.webhook.map { Webhook(url: $0.url, secret: newSecret) }
        push = channels.pushSubscriptions.map {
            Push(endpoint: $0.endpoint, createdAt: $0.createdAt.map { ISOInstant.format($0, in: zone) })
        }
    }

    enum CodingKeys: String, CodingKey { case ntfy, webhook, push }

    /// `ntfy` and `webhook` are null when not set, never left out: a page can tell "none" at a glance.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let ntfy { try container.encode(ntfy, forKey: .ntfy) } else { try container.encodeNil(forKey: .ntfy) }
        if let webhook {
            try container.encode(webhook, forKey: .webhook)
        } else {
            try container.encodeNil(forKey: .webhook)
        }
        try container.encode(push, forKey: .push)
    }
}
