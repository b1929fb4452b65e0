import Crypto

/// A small, strict WebAuthn relying party (Level 2, §7): it checks that a passkey's registration
/// and each sign-in come from this site's origin, for this site's relying party id, over a
/// challenge it issued, with a person present, and signed by the stored key.
///
/// Attestation is not verified: `fmt: none` is taken, and another format's statement is ignored,
/// so a registration says nothing about the authenticator's make (the same trust as "none", which
/// is what browsers send by default).
public struct RelyingParty: Sendable, Equatable {
    /// The relying party id: a host name (`habits.example`, `localhost`).
    public let id: String
    /// The origin every ceremony must come from (`https://habits.example`).
    public let origin: String

    public init(id: String, origin: String) {
        self.id = id
        self.origin = origin
    }

    /// A checked registration: the new credential and its signature counter.
    public struct Registration: Sendable, Equatable {
        public let clientData: ClientData
        public let credentialID: [UInt8]
        /// The COSE_Key bytes to store.
        public let publicKey: [UInt8]
        public let signCount: UInt32
        public let userVerified: Bool
    }

    /// Checks a registration's clientDataJSON and attestationObject (its challenge is the
    /// caller's to match, in `Registration.clientData`).
    public func register(clientDataJSON: [UInt8], attestationObject: [UInt8]) throws -> Registration {
        let clientData = try ClientData(json: clientDataJSON, ceremony: .registration, origin: origin)
        let attestation = try CBORReader.decode(attestationObject, what: "attestationObject")
        guard case .map = attestation, let format = attestation[.text("fmt")]?.textString,
            let statement = attestation[.text("attStmt")], case .map(let statementEntries) = statement,
            let authData = attestation[.text("authData")]?.byteString
        else { throw WebAuthnError.malformed("attestationObject: a map of fmt, attStmt and authData is wanted") }
        // "none" has an empty statement; any other format's is ignored (attestation is not verified).
        if format == "none", !statementEntries.isEmpty {
            throw WebAuthnError.malformed("attestationObject: fmt none with a statement")
        }
        let data = try AuthenticatorData(authData)
        try check(data)
        guard let credential = data.attestedCredential else {
            throw WebAuthnError.malformed("authenticatorData: no attested credential in a registration")
        }
        _ = try COSEPublicKey(cose: credential.publicKey)
        return Registration(
            clientData: clientData, credentialID: credential.credentialID, publicKey: credential.publicKey,
            signCount: data.signCount, userVerified: data.userVerified)
    }

    /// A checked sign-in: its client data (for the challenge) and the authenticator's new counter.
    public struct Assertion: Sendable, Equatable {
        public let clientData: ClientData
        public let signCount: UInt32
        public let userVerified: Bool
    }

    /// Reads a sign-in's clientDataJSON alone (type and origin checked), to find its challenge first.
    public func assertionClientData(_ clientDataJSON: [UInt8]) throws -> ClientData {
        try ClientData(json: clientDataJSON, ceremony: .authentication, origin: origin)
    }

    /// Checks a sign-in: the client data, the authenticator data, the signature over
    /// `authenticatorData || SHA-256(clientDataJSON)` with the stored COSE key, and a counter that
    /// went forward (refused when it did not and neither it nor `storedSignCount` is 0: a cloned key).
    public func authenticate(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], publicKey: [UInt8],
        storedSignCount: UInt32
    ) throws -> Assertion {
        let clientData = try assertionClientData(clientDataJSON)
        let data = try AuthenticatorData(authenticatorData)
        try check(data)
        let key = try COSEPublicKey(cose: publicKey)
        let signed = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        guard key.isValidSignature(signature, for: signed) else {
            throw WebAuthnError.mismatch("the signature is not this passkey's")
        }
        if data.signCount != 0, storedSignCount != 0, data.signCount <= storedSignCount {
            throw WebAuthnError.mismatch(
                "the signature counter went from \(storedSignCount) to \(data.signCount): a copied authenticator?")
        }
        return Assertion(clientData: clientData, signCount: data.signCount, userVerified: data.userVerified)
    }

    /// The relying party id's hash and the user's presence, which every ceremony needs.
    private func check(_ data: AuthenticatorData) throws {
        guard data.rpIDHash == Array(SHA256.hash(data: Array(id.utf8))) else {
            throw WebAuthnError.mismatch("authenticatorData: made for another relying party than \(id)")
        }
        guard data.userPresent else { throw WebAuthnError.mismatch("authenticatorData: no user presence") }
    }
}
