import Crypto
import _CryptoExtras

/// A credential's public key read from its COSE_Key (RFC 9053): ES256 (ECDSA on P-256 with
/// SHA-256, COSE algorithm -7) or RS256 (RSASSA-PKCS1-v1_5 with SHA-256, -257, 2048 bits or more).
public enum COSEPublicKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// The COSE algorithms this relying party verifies, in the order it prefers them.
    public static let algorithms: [Int] = [-7, -257]

    /// Reads a COSE_Key; other key types, curves and algorithms are `unsupported`.
    public init(cose bytes: [UInt8]) throws {
        let key = try CBORReader.decode(bytes, what: "credentialPublicKey")
        guard case .map = key else { throw WebAuthnError.malformed("credentialPublicKey: not a CBOR map") }
        let keyType = key[.unsigned(1)]?.integer
        let algorithm = key[.unsigned(3)]?.integer
        switch (keyType, algorithm) {
        case (2, -7):
            guard key[.negative(-1)]?.integer == 1, let x = key[.negative(-2)]?.byteString,
                let y = key[.negative(-3)]?.byteString, x.count == 32, y.count == 32
            else {
                throw WebAuthnError.malformed(
                    "credentialPublicKey: an ES256 key needs curve P-256 (1) and 32-byte x and y")
            }
            do {
                self = .es256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw WebAuthnError.malformed("credentialPublicKey: x and y are not a point of P-256")
            }
        case (3, -257):
            guard let n = key[.negative(-1)]?.byteString, let e = key[.negative(-2)]?.byteString, !e.isEmpty,
                e.count <= 8
            else { throw WebAuthnError.malformed("credentialPublicKey: an RS256 key needs its n and e") }
            do {
                self = .rs256(try _RSA.Signing.PublicKey(n: n, e: e))
            } catch {
                throw WebAuthnError.unsupported("credentialPublicKey: not an RSA key of 2048 bits or more")
            }
        default:
            throw WebAuthnError.unsupported(
                "credentialPublicKey: key type \(keyType.map(String.init) ?? "none") with algorithm "
                    + "\(algorithm.map(String.init) ?? "none") (ES256 -7 and RS256 -257 are taken)")
        }
    }

    /// Whether `signature` (DER ECDSA for ES256, PKCS#1 v1.5 for RS256) signs `data` with this key.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: data)
        case .rs256(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
