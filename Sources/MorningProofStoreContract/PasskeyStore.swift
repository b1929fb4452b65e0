import Foundation

/// An account's passkeys (WebAuthn credentials) and the challenges their ceremonies answered
/// (issue 41). `AccountStore` refines it, so that both engines serve it; the checks stay in the
/// service (`PasskeyService`), the stores only keep rows. A challenge is sealed by the server's key
/// and stored nowhere when it is issued (anyone may ask for one); only an answered one is kept, until
/// it expires, so that it is answered once.
public protocol PasskeyStore: Sendable {
    /// The key that seals passkey challenges, shared by every server on the database: the stored
    /// one, or `candidate` stored when there is none yet.
    func passkeyChallengeKey(orStore candidate: Data) async throws -> Data
    /// Records an answered challenge (by its SHA-256, hex), so that it is answered once; every
    /// expired one goes at the same time (before `challenge.createdAt`, the instant it is answered).
    /// `.used` when it was answered before; `.tooMany` (nothing written) when its account has
    /// answered `perAccountLimit` unexpired challenges already.
    func spendPasskeyChallenge(_ challenge: PasskeyChallenge, perAccountLimit: Int) async throws
        -> PasskeyChallengeSpend

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

/// A challenge a ceremony answered: kept only as its SHA-256, until it expires.
public struct PasskeyChallenge: Sendable, Equatable {
    /// What the challenge is for: adding a passkey (to `accountID`), or signing in with one.
    public enum Purpose: String, Sendable {
        case registration
        case authentication
    }

    public var hash: String
    public var purpose: Purpose
    /// The account a registration adds to, or the account of the passkey a sign-in used.
    public var accountID: Int64?
    /// The instant it was answered.
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

/// What recording an answered challenge did.
public enum PasskeyChallengeSpend: Sendable, Equatable {
    /// Recorded: its first answer.
    case spent
    /// Answered before: a replay.
    case used
    /// Its account answered as many unexpired challenges as it may: nothing recorded.
    case tooMany
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

/// A stored passkey: what was added (`NewPasskey`, whose fields it answers as its own, with the
/// counter of its last sign-in), its row's id and its last use.
@dynamicMemberLookup
public struct StoredPasskey: Sendable, Equatable {
    public var id: Int64
    public var passkey: NewPasskey
    /// The last sign-in with it; nil before the first.
    public var lastUsedAt: Date?

    public init(id: Int64, _ passkey: NewPasskey, lastUsedAt: Date?) {
        self.id = id
        self.passkey = passkey
        self.lastUsedAt = lastUsedAt
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<NewPasskey, Value>) -> Value {
        get { passkey[keyPath: field] }
        set { passkey[keyPath: field] = newValue }
    }
}
