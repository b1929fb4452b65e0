/// The authenticator's own statement (WebAuthn §6.1): the SHA-256 of the relying party id, the
/// flags, the signature counter and, at registration, the new credential.
public struct AuthenticatorData: Sendable, Equatable {
    public let rpIDHash: [UInt8]
    /// UP: a person touched or otherwise answered the authenticator.
    public let userPresent: Bool
    /// UV: the authenticator checked who it was (PIN, fingerprint, face).
    public let userVerified: Bool
    public let signCount: UInt32
    /// Present when the AT flag is set (registration).
    public let attestedCredential: AttestedCredential?

    /// What a registration adds: the credential's id and its public key as COSE bytes.
    public struct AttestedCredential: Sendable, Equatable {
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        /// The COSE_Key, byte for byte as the authenticator wrote it (what is stored).
        public let publicKey: [UInt8]
    }

    /// The longest credential id WebAuthn allows (§5.8.3).
    public static let maxCredentialIDLength = 1023

    /// Reads authenticator data; the bytes must end where its last part (key or extensions) ends.
    public init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 37 else {
            throw WebAuthnError.malformed("authenticatorData: \(bytes.count) bytes, a passkey's hold at least 37")
        }
        rpIDHash = Array(bytes[0..<32])
        let flags = bytes[32]
        userPresent = flags & 0x01 != 0
        userVerified = flags & 0x04 != 0
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= offset + 18 else {
                throw WebAuthnError.malformed("authenticatorData: the attested credential ends early")
            }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length > 0, length <= Self.maxCredentialIDLength, bytes.count >= offset + length else {
                throw WebAuthnError.malformed(
                    "authenticatorData: a credential id of \(length) bytes (1 to 1023, within the data)")
            }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            let (_, keyEnd) = try CBORReader.decodePrefix(bytes, from: offset, what: "credentialPublicKey")
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKey: Array(bytes[offset..<keyEnd]))
            offset = keyEnd
        } else {
            attestedCredential = nil
        }
        if flags & 0x80 != 0 {
            // Extensions: read to find where they end, and otherwise ignored.
            let (extensions, end) = try CBORReader.decodePrefix(bytes, from: offset, what: "extensions")
            guard case .map = extensions else { throw WebAuthnError.malformed("extensions: not a CBOR map") }
            offset = end
        }
        guard offset == bytes.count else {
            throw WebAuthnError.malformed("authenticatorData: \(bytes.count - offset) bytes after its last part")
        }
    }
}
