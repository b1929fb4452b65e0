import MorningProofCore
import Crypto
import Foundation
import MorningProofStoreContract

/// The server's VAPID key pair (RFC 8292): a P-256 signing key whose public half browsers get as
/// `applicationServerKey` and push services check each request's JWT against.
public struct VAPIDKey: Sendable {
    let signingKey: P256.Signing.PrivateKey

    /// A new random key pair.
    public init() {
        signingKey = P256.Signing.PrivateKey()
    }

    /// The key pair of a stored raw private key (32 bytes); nil when the bytes are no P-256 key.
    public init?(privateKey raw: Data) {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { return nil }
        signingKey = key
    }

    /// The raw private key (32 bytes), as `VAPIDIdentity.privateKey` stores it.
    public var privateKey: Data { signingKey.rawRepresentation }

    /// The uncompressed public key (65 bytes, 0x04 first), as browsers take it.
    public var publicKey: Data { signingKey.publicKey.x963Representation }

    /// `publicKey` in base64url without padding: `GET /api/push/key`'s `publicKey`.
    public var publicKeyBase64URL: String { Base64URL.encode(publicKey) }

    /// A new identity with a fresh key, for a database that has none yet.
    public static func newIdentity(contact: String) -> VAPIDIdentity {
        VAPIDIdentity(privateKey: VAPIDKey().privateKey, contact: contact)
    }
}
