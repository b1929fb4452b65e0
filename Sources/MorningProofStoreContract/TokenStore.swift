import Foundation
import MorningProofCore

/// API tokens, stored by their SHA-256 (never the token itself), and the accounts they sign in.
public protocol TokenStore: Sendable {
    /// Stores a token by its SHA-256; expired tokens of the same account go at the same time.
    func insertToken(
        accountID: Int64, name: String, tokenHash: String, createdAt: Date, expiresAt: Date?, scope: TokenScope
    ) async throws -> APIToken
    /// The profile of the account whose unexpired token of one of `scopes` has this SHA-256, or nil.
    func account(tokenHash: String, at now: Date, scopes: Set<TokenScope>) async throws -> AccountProfile?
    /// Tokens of one account, or of every account, oldest first.
    func tokens(accountID: Int64?) async throws -> [APIToken]
    /// Deletes a token by id (only among one account's, when given); false when there was none.
    func revokeToken(id: Int64, accountID: Int64?) async throws -> Bool
    /// Deletes the token with this SHA-256; false when there was none.
    func revokeToken(hash: String) async throws -> Bool
}

extension TokenStore {
    /// A token that never expires with full scope (`morningproof-server token create`, tests).
    public func insertToken(accountID: Int64, name: String, tokenHash: String, createdAt: Date, expiresAt: Date?)
        async throws -> APIToken
    {
        try await insertToken(
            accountID: accountID, name: name, tokenHash: tokenHash, createdAt: createdAt, expiresAt: expiresAt,
            scope: .full)
    }

    /// The account of a full-scope token (a narrower one signs in nothing here), or nil.
    public func account(tokenHash: String, at now: Date) async throws -> AccountProfile? {
        try await account(tokenHash: tokenHash, at: now, scopes: [.full])
    }
}

/// An API token as it is listed: never the token itself, which is not stored.
public struct APIToken: Sendable, Equatable {
    public var id: Int64
    public var accountID: Int64
    /// The account's email, nil for an owner without one.
    public var email: String?
    public var name: String
    public var createdAt: Date
    /// Nil: never expires.
    public var expiresAt: Date?
    /// What the token may do: everything its account may, only post metrics, or only ask the gate.
    public var scope: TokenScope

    /// Public, so that another store (PostgreSQL's) can return tokens too.
    public init(
        id: Int64, accountID: Int64, email: String?, name: String, createdAt: Date, expiresAt: Date?,
        scope: TokenScope = .full
    ) {
        self.id = id
        self.accountID = accountID
        self.email = email
        self.name = name
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.scope = scope
    }
}

/// What a token may do, stored with it (`api_token.scope`). Which routes each scope opens is
/// `TokenService`'s rule; the stores only find a token among the scopes they are given.
public enum TokenScope: String, Sendable, CaseIterable, Codable {
    /// Everything the account may do (a sign-in, a script's token).
    case full
    /// Only `POST /api/metrics`: the token pasted into a phone's Health Auto Export.
    case metrics
    /// Only the gate: `GET /api/gate` and `POST /api/gate/unlock`, for the browser extension and
    /// phone automations.
    case gate
    /// A one-time pairing code (10 minutes), exchanged once for a gate token; it opens no route.
    case pairing
}
