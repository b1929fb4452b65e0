import Foundation
import MorningProofCore

/// A browser's push subscription (`PushSubscription.toJSON()`): where the push service takes a
/// message for it, and the keys its payload is encrypted to (RFC 8291).
public struct PushSubscription: Sendable, Hashable, Codable {
    /// The push service's URL for this browser (https).
    public var endpoint: String
    /// The browser's P-256 public key, uncompressed (65 bytes), base64url without padding.
    public var p256dh: String
    /// The 16-byte authentication secret, base64url without padding.
    public var auth: String
    /// When the account saved it (nil for one not stored yet).
    public var createdAt: Date?

    public init(endpoint: String, p256dh: String, auth: String, createdAt: Date? = nil) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.createdAt = createdAt
    }
}

extension PushSubscription {
    /// Saving an endpoint that another account holds with other keys.
    public static let takenElsewhere = StoreError(
        .conflict, value: "endpoint",
        "this push endpoint belongs to another account's browser with other keys; subscribe this browser anew")
}

/// An ntfy topic: `url` is the topic's URL (`https://ntfy.example/my-topic`), `token` an access token.
public struct NtfyChannel: Sendable, Hashable, Codable {
    public var url: String
    public var token: String?

    public init(url: String, token: String? = nil) {
        self.url = url
        self.token = token
    }
}

/// A webhook: each event's JSON is POSTed to `url`, signed with `secret`
/// (`X-MorningProof-Signature: sha256=HEX`, the HMAC-SHA256 of the body).
public struct WebhookChannel: Sendable, Hashable, Codable {
    public var url: String
    public var secret: String

    public init(url: String, secret: String) {
        self.url = url
        self.secret = secret
    }
}

/// Everywhere one account's notifications go.
public struct AccountChannels: Sendable, Hashable {
    public var pushSubscriptions: [PushSubscription]
    public var ntfy: NtfyChannel?
    public var webhook: WebhookChannel?

    public init(pushSubscriptions: [PushSubscription] = [], ntfy: NtfyChannel? = nil, webhook: WebhookChannel? = nil) {
        self.pushSubscriptions = pushSubscriptions
        self.ntfy = ntfy
        self.webhook = webhook
    }

    /// True when there is nowhere to deliver.
    public var isEmpty: Bool { pushSubscriptions.isEmpty && ntfy == nil && webhook == nil }
}

/// The server's Web Push identity (VAPID, RFC 8292), one for every server process sharing a
/// database, made on first start.
public struct VAPIDIdentity: Sendable, Hashable {
    /// The P-256 private key, raw (32 bytes).
    public var privateKey: Data
    /// The JWT's `sub`: `mailto:ADDRESS` or an https URL.
    public var contact: String

    public init(privateKey: Data, contact: String) {
        self.privateKey = privateKey
        self.contact = contact
    }
}
