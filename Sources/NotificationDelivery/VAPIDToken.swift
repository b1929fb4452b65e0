import MorningProofCore
import Crypto
import Foundation

/// The VAPID `Authorization` of a Web Push request (RFC 8292): an ES256 JWT for the push
/// service's origin, signed by the server's key, and that key.
public struct VAPIDToken: Sendable, Equatable {
    /// How long a token is valid: 12 hours (Apple refuses more than 24).
    public static let lifetime: TimeInterval = 12 * 3600

    /// The JWT's claims.
    public struct Claims: Codable, Sendable, Equatable {
        /// The push service's origin, `scheme://host[:port]`.
        public var aud: String
        /// Expiry, seconds since 1970.
        public var exp: Int
        /// The server's contact, `mailto:` or https.
        public var sub: String
    }

    /// The compact JWT `header.claims.signature`.
    public let jwt: String
    /// The signing key's public half, base64url (the `k` parameter).
    public let publicKey: String
    /// The `exp` claim, seconds since 1970.
    public let expiry: Int

    /// A token for `audience` valid from `now` for `lifetime`.
    public init(key: VAPIDKey, audience: String, contact: String, now: Date) throws {
        let claims = Claims(aud: audience, exp: Int(now.timeIntervalSince1970 + Self.lifetime), sub: contact)
        let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let body = Base64URL.encode(Data(try SortedJSON.encode(claims)))
        let signingInput = "\(header).\(body)"
        // ES256 in JOSE form: the raw r|s, 64 bytes, not DER.
        let signature = try key.signingKey.signature(for: Data(signingInput.utf8)).rawRepresentation
        jwt = "\(signingInput).\(Base64URL.encode(signature))"
        expiry = claims.exp
        publicKey = key.publicKeyBase64URL
    }

    /// The header value: `vapid t=<JWT>, k=<public key>`.
    public var authorization: String { "vapid t=\(jwt), k=\(publicKey)" }

    /// The origin of an endpoint URL (`https://push.example.net:8443`), the JWT's `aud`; nil when
    /// the URL has no scheme or host.
    public static func origin(of endpoint: URL) -> String? {
        guard let scheme = endpoint.scheme?.lowercased(), let host = endpoint.host?.lowercased(), !host.isEmpty
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        guard let port = endpoint.port, port != defaultPort else { return "\(scheme)://\(bracketed)" }
        return "\(scheme)://\(bracketed):\(port)"
    }
}
