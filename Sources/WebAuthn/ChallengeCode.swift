import Crypto

/// HMAC-SHA256 (swift-crypto) for the challenges a relying party seals instead of storing: the code
/// of a message under the server's key, and its check in a time that does not depend on the bytes.
public enum ChallengeCode {
    /// The length of a code, in bytes.
    public static let count = SHA256.byteCount

    /// The code of `message` under `key`.
    public static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// Whether `code` is the code of `message` under `key`.
    public static func isValid(_ code: [UInt8], key: [UInt8], message: [UInt8]) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: key))
    }
}
