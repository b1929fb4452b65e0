import Crypto
import Foundation
import MorningProofCore

/// The ACME account's P-256 key, and the JSON Web Signatures (ES256, RFC 7515) it puts on every
/// request to the CA (RFC 8555 §6.2).
public struct ACMEAccountKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    /// A new key.
    public init() { privateKey = P256.Signing.PrivateKey() }

    public init(privateKey: P256.Signing.PrivateKey) { self.privateKey = privateKey }

    /// The key from its PEM (PKCS #8 or SEC 1), as `pem` writes it.
    public init(pem: String) throws { privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem) }

    /// The key as PEM (PKCS #8), for the account key file.
    public var pem: String { privateKey.pemRepresentation }

    /// The public key as a JWK, its members in RFC 7638's order (the thumbprint hashes exactly this).
    public var jwk: String {
        let raw = privateKey.publicKey.rawRepresentation
        let x = Base64URL.encode(raw.prefix(32)), y = Base64URL.encode(raw.suffix(32))
        return #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }

    /// The JWK thumbprint (RFC 7638, SHA-256) that key authorizations end with.
    public var thumbprint: String { Base64URL.encode(Data(SHA256.hash(data: Data(jwk.utf8)))) }

    /// What the server answers at `/.well-known/acme-challenge/TOKEN` (RFC 8555 §8.1).
    public func keyAuthorization(token: String) -> String { "\(token).\(thumbprint)" }

    /// A flattened JWS of `payload` (nil: the empty payload of a POST-as-GET) for `url`, naming the
    /// account by `accountURL` (`kid`), or by the key itself (`jwk`) before the account exists.
    public func signed(url: String, nonce: String, accountURL: String?, payload: Data?) throws -> Data {
        let key = accountURL == nil ? #","jwk":\#(jwk)"# : #","kid":\#(try Self.json(accountURL ?? ""))"#
        let protected = #"{"alg":"ES256"\#(key),"nonce":\#(try Self.json(nonce)),"url":\#(try Self.json(url))}"#
        let protected64 = Base64URL.encode(Data(protected.utf8))
        let payload64 = payload.map { Base64URL.encode($0) } ?? ""
        let signature = try privateKey.signature(for: Data("\(protected64).\(payload64)".utf8))
        let body = [
            "protected": protected64, "payload": payload64,
            "signature": Base64URL.encode(signature.rawRepresentation),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(body)
    }

    /// `text` as a JSON string, quoted and escaped.
    private static func json(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}
