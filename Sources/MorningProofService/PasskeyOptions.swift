/// `PublicKeyCredentialCreationOptions` in WebAuthn's JSON form (binary fields in base64url), as
/// `PublicKeyCredential.parseCreationOptionsFromJSON` takes them.
public struct PasskeyCreationOptions: Encodable, Sendable, Equatable {
    public struct Party: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
    }

    public struct User: Encodable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var displayName: String
    }

    public struct Parameter: Encodable, Sendable, Equatable {
        public var type: String
        public var alg: Int
    }

    public struct Selection: Encodable, Sendable, Equatable {
        public var residentKey: String
        public var requireResidentKey: Bool
        public var userVerification: String
    }

    public struct Descriptor: Encodable, Sendable, Equatable {
        public var type: String
        public var id: String
    }

    public var challenge: String
    public var rp: Party
    public var user: User
    public var pubKeyCredParams: [Parameter]
    /// Milliseconds.
    public var timeout: Int
    public var attestation: String
    public var authenticatorSelection: Selection
    public var excludeCredentials: [Descriptor]
}

/// `PublicKeyCredentialRequestOptions` in WebAuthn's JSON form.
public struct PasskeyRequestOptions: Encodable, Sendable, Equatable {
    public var challenge: String
    public var rpId: String
    /// Milliseconds.
    public var timeout: Int
    public var userVerification: String
    /// Empty: the browser offers the discoverable passkeys it holds for the site.
    public var allowCredentials: [PasskeyCreationOptions.Descriptor]
}
