import Foundation
import MorningProofCore
import MorningProofStoreContract

/// What an account may set as a notification channel: the checks made before anything is stored.
/// Outbound addresses are checked again when a message goes out (after DNS resolution); these are
/// the checks that need no network.
public struct ChannelRules: Sendable {
    /// True (`serve --allow-local-notify-targets`, tests and demos): plain http is accepted too.
    public var allowLocalTargets: Bool

    /// The longest URL accepted (a push service's endpoint, an ntfy topic, a webhook).
    public static let maxURLLength = 2048
    /// The longest ntfy access token accepted (ntfy's own are 32 characters after `tk_`).
    public static let maxTokenLength = 256
    /// Push subscriptions kept per account: saving one more drops the oldest.
    public static let maxSubscriptions = 20

    public init(allowLocalTargets: Bool = false) {
        self.allowLocalTargets = allowLocalTargets
    }

    /// `text` as a target URL for `field`: absolute, https (or http when local targets are
    /// allowed), with a host, without credentials, at most `maxURLLength` characters.
    /// True when every character of `text` is visible ASCII, as every stored target URL's is.
    static func isVisibleASCII(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// True when `text` is something `targetURL` could have let through: the only endpoints a
    /// subscription can have (a NUL byte, which PostgreSQL cannot even compare, is not one).
    public static func couldBeStored(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maxURLLength && isVisibleASCII(text)
    }

    public func targetURL(_ text: String, field: String) throws -> String {
        guard !text.isEmpty else { throw Self.invalid("\"\(field)\" is empty: give an https URL") }
        guard text.utf8.count <= Self.maxURLLength else {
            throw Self.invalid("\"\(field)\" is longer than \(Self.maxURLLength) characters")
        }
        guard Self.isVisibleASCII(text),
            let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
            let host = parts.host, !host.isEmpty
        else {
            throw Self.invalid("\"\(field)\" is not a URL: give one such as https://example.com/path")
        }
        guard parts.user == nil && parts.password == nil else {
            throw Self.invalid("\"\(field)\" must not hold a user name or password")
        }
        let schemes: Set<String> = allowLocalTargets ? ["https", "http"] : ["https"]
        guard schemes.contains(scheme) else {
            throw MorningProofError(
                .refused, code: "https_required",
                "\"\(field)\" must be an https URL" + (scheme == "http" ? " (plain http is refused)" : ""))
        }
        return text
    }

    /// An ntfy access token: 1 to `maxTokenLength` visible ASCII characters (it goes in a header).
    public func ntfyToken(_ token: String) throws -> String {
        guard !token.isEmpty, token.utf8.count <= Self.maxTokenLength,
            token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw Self.invalid(
                "\"token\" must be 1 to \(Self.maxTokenLength) visible ASCII characters, without spaces")
        }
        return token
    }

    /// A browser's subscription, checked: its endpoint a target URL, `p256dh` an uncompressed P-256
    /// point (65 bytes, 0x04 first) and `auth` 16 bytes, both base64url.
    public func subscription(_ subscription: PushSubscription) throws -> PushSubscription {
        _ = try targetURL(subscription.endpoint, field: "endpoint")
        guard let key = Self.base64URL(subscription.p256dh), key.count == 65, key.first == 0x04 else {
            throw Self.invalid(
                "\"keys.p256dh\" must be the browser's P-256 public key: 65 bytes starting with 0x04, in base64url")
        }
        guard let auth = Self.base64URL(subscription.auth), auth.count == 16 else {
            throw Self.invalid("\"keys.auth\" must be the browser's 16-byte authentication secret, in base64url")
        }
        return subscription
    }

    /// A new webhook secret: 32 random bytes from the system's secure generator, as 64 hex digits.
    public static func newWebhookSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// The bytes of a base64url key (padded or not, at most 256 characters); nil for anything else.
    static func base64URL(_ text: String) -> Data? {
        text.utf8.count <= 256 ? Base64URL.decode(text) : nil
    }

    static func invalid(_ message: String) -> MorningProofError {
        MorningProofError(.usage, message)
    }
}

/// The JWT `sub` of Web Push (`serve --push-contact`): how a push service reaches the server's
/// operator.
public enum PushContact {
    /// What a server that was never given a contact signs with. Apple's push service wants a real
    /// one: the server logs a warning while it uses this.
    public static let fallback = "mailto:push@morningproof.invalid"

    /// `text` when it is `mailto:` with an address or an https URL, and does not name localhost
    /// (Apple's push service refuses such contacts).
    public static func checked(_ text: String) throws -> String {
        let lowered = text.lowercased()
        let host: String
        if lowered.hasPrefix("mailto:") {
            let address = String(text.dropFirst("mailto:".count))
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
                address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
            else {
                throw MorningProofError(
                    .usage, "--push-contact \(text): give mailto: and an address, such as mailto:you@example.com")
            }
            host = parts[1].lowercased()
        } else if lowered.hasPrefix("https://"), let url = URLComponents(string: text), let urlHost = url.host,
            !urlHost.isEmpty
        {
            host = urlHost.lowercased()
        } else {
            throw MorningProofError(
                .usage, "--push-contact \(text): give mailto:ADDRESS or an https URL where you can be reached")
        }
        let local = ["localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"]
        guard !local.contains(host), !host.hasSuffix(".localhost"), !host.hasPrefix("127.") else {
            throw MorningProofError(
                .usage, "--push-contact \(text): Apple's push service refuses localhost contacts; give a real address")
        }
        return text
    }
}
