import MorningProofCore

/// Why a passkey's registration or assertion was refused: a stable code and a message that names
/// the part of the ceremony at fault ("authenticatorData: 12 bytes, a passkey's hold at least 37").
public struct WebAuthnError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `malformed` (the bytes cannot be read), `mismatch` (read, but for another challenge, origin,
    /// site or key), `unsupported` (a key type or CBOR item this relying party does not take).
    public let code: String
    public let message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func malformed(_ message: String) -> WebAuthnError { WebAuthnError("malformed", message) }
    static func mismatch(_ message: String) -> WebAuthnError { WebAuthnError("mismatch", message) }
    static func unsupported(_ message: String) -> WebAuthnError { WebAuthnError("unsupported", message) }
}

extension WebAuthnError: MorningProofErrorConvertible {
    /// 400 `passkey_refused`: what a client sent is no valid passkey answer for this server.
    public var morningProofError: MorningProofError {
        MorningProofError(.usage, code: "passkey_refused", "passkey refused: \(message)")
    }
}
