import Foundation

/// An account's passkeys (WebAuthn credentials) and the one-time challenges their ceremonies sign
/// (issue 41). `AccountStore` refines it, so that both engines serve it; the checks stay in the
/// service (`PasskeyService`), the stores only keep rows.
public protocol PasskeyStore: Sendable {
    /// Stores a challenge by its SHA-256 (hex); every expired challenge goes at the same time, so
    /// the table holds at most the lifetime's worth.
    func storePasskeyChallenge(_ challenge: PasskeyChallenge) async throws
    /// Takes an unexpired challenge of this purpose once: deletes it and answers it, or nil when it
    /// is unknown, used, expired or of the other purpose.
    func takePasskeyChallenge(hash: String, purpose: PasskeyChallenge.Purpose, at now: Date) async throws
        -> PasskeyChallenge?

    /// Adds a passkey; nil when its credential id is registered already (to any account).
    func addPasskey(_ passkey: NewPasskey) async throws -> StoredPasskey?
    /// The account's passkeys, oldest first.
    func passkeys(accountID: Int64) async throws -> [StoredPasskey]
    /// The passkey with this credential id (base64url), of any account.
    func passkey(credentialID: String) async throws -> StoredPasskey?
    /// Records a sign-in with the passkey: its new counter and the instant, only while the stored
    /// counter is still `expected` (two sign-ins with one counter: one wins). False otherwise.
    func recordPasskeyUse(id: Int64, expected: Int64, signCount: Int64, at instant: Date) async throws -> Bool
    /// Deletes one of the account's passkeys; false when the account has none with this id.
    func deletePasskey(id: Int64, accountID: Int64) async throws -> Bool
}

/// A challenge a ceremony signs: random bytes, kept only as their SHA-256, single use, short-lived.
public struct PasskeyChallenge: Sendable, Equatable {
    /// What the challenge is for: adding a passkey (to `accountID`), or signing in with one.
    public enum Purpose: String, Sendable {
        case registration
        case authentication
    }

    public var hash: String
    public var purpose: Purpose
    /// The account a registration adds to; nil for a sign-in, whose account the passkey names.
    public var accountID: Int64?
    public var createdAt: Date
    public var expiresAt: Date

    public init(hash: String, purpose: Purpose, accountID: Int64?, createdAt: Date, expiresAt: Date) {
        self.hash = hash
        self.purpose = purpose
        self.accountID = accountID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A passkey to store, as a registration checked it.
public struct NewPasskey: Sendable, Equatable {
    public var accountID: Int64
    /// base64url of the credential id the authenticator chose.
    public var credentialID: String
    /// The public key as the authenticator wrote it (a COSE_Key).
    public var publicKey: Data
    public var signCount: Int64
    public var name: String
    public var createdAt: Date

    public init(
        accountID: Int64, credentialID: String, publicKey: Data, signCount: Int64, name: String, createdAt: Date
    ) {
        self.accountID = accountID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.name = name
        self.createdAt = createdAt
    }
}

/// A stored passkey.
public struct StoredPasskey: Sendable, Equatable {
    public var id: Int64
    public var accountID: Int64
    public var credentialID: String
    public var publicKey: Data
    public var signCount: Int64
    public var name: String
    public var createdAt: Date
    /// The last sign-in with it; nil before the first.
    public var lastUsedAt: Date?

    public init(
        id: Int64, accountID: Int64, credentialID: String, publicKey: Data, signCount: Int64, name: String,
        createdAt: Date, lastUsedAt: Date?
    ) {
        self.id = id
        self.accountID = accountID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
