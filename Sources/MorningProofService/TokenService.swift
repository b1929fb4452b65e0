import Digest
import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A bearer token as a request presents it, with the real time its expiry is checked against: a
/// replayed clock (the server's `X-MorningProof-Now`) moves "today", never a token's life.
public struct PresentedToken: Sendable {
    public var token: String
    public var at: Date

    public init(_ token: String, at: Date) {
        self.token = token
        self.at = at
    }

    /// The SHA-256 to look up, or nil when the text cannot be a token at all.
    public var hash: String? { TokenSecret.looksValid(token) ? TokenSecret.hash(token) : nil }
}

/// A token just made: the secret, shown once, and its stored record.
public struct IssuedToken: Sendable {
    public var token: String
    public var record: APIToken
}

/// API tokens: 32 random bytes, of which only a SHA-256 is stored. Sign-in tokens expire; tokens
/// made for scripts do not.
public struct TokenService: Sendable {
    public static let nameMaxLength = 100

    public let database: any AccountStore
    /// The hours whose use of each token this server has recorded (`recordUse`).
    let useHours = TokenUseHours()

    public init(database: any AccountStore) {
        self.database = database
    }

    /// Revokes the token presented (signing out).
    public func logOut(token: String) async throws {
        _ = try await database.revokeToken(hash: TokenSecret.hash(token))
    }

    /// The account a bearer token signs in for `access`, or nil for an unknown or expired one, or
    /// one whose scope does not open it (a metrics token anywhere but the metrics upload).
    public func authenticate(_ token: PresentedToken, for access: TokenAccess = .account) async throws
        -> AccountProfile?
    {
        guard let hash = token.hash,
            let account = try await database.account(tokenHash: hash, at: token.at, scopes: access.scopes)
        else { return nil }
        await recordUse(hash, at: token.at)
        return account
    }

    /// The scopes a token can be made with by name (a pairing code is made by `GatePairingService`).
    public static let namedScopes: [TokenScope] = [.full, .metrics, .gate]

    /// The scope named in a request (`"full"`, `"metrics"`, `"gate"`); usage error (400) for another name.
    public static func scope(named name: String) throws -> TokenScope {
        guard let scope = TokenScope(rawValue: name), namedScopes.contains(scope) else {
            throw MorningProofError.usage(
                "the token scope must be \(namedScopes.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), not \"\(name)\""
            )
        }
        return scope
    }

    /// What a request with an unknown, revoked or expired token gets.
    public static let invalidToken = MorningProofError(
        .unauthorized, code: "invalid_token", "the token is not valid (unknown, revoked or expired)")

    /// A token that never expires, for a script: for the owner when no email is given.
    public func createToken(email: String?, name: String, now: Date, scope: TokenScope = .full) async throws
        -> IssuedToken
    {
        var accountID = AccountProfile.ownerID
        if let email {
            guard let id = try await database.accountID(email: email) else {
                throw MorningProofError(.notFound, code: "no_such_account", "no account has the email \(email)")
            }
            accountID = id
        }
        return try await createToken(accountID: accountID, name: name, now: now, scope: scope)
    }

    /// A token that never expires for this account, of `scope` (full unless said).
    public func createToken(accountID: Int64, name: String, now: Date, scope: TokenScope = .full) async throws
        -> IssuedToken
    {
        let name = try UserText.validate(name, field: "the token name", maxLength: Self.nameMaxLength)
        guard !UserText.isBlank(name) else {
            throw MorningProofError.usage("the token needs a name, such as \"backup script\"")
        }
        return try await issue(accountID: accountID, name: name, now: now, lifetime: nil, scope: scope)
    }

    /// Tokens of one account, or of all of them (pairing codes waiting to be used are not tokens).
    public func tokens(accountID: Int64? = nil) async throws -> [APIToken] {
        try await database.tokens(accountID: accountID).filter { $0.scope != .pairing }
    }

    /// Revokes a token by id; among one account's tokens only, when given (another's id is not found).
    public func revokeToken(id: Int64, accountID: Int64? = nil) async throws {
        guard try await database.revokeToken(id: id, accountID: accountID) else {
            throw MorningProofError(.notFound, code: "not_found", "no token has the id \(id)")
        }
    }

    func issue(accountID: Int64, name: String, now: Date, lifetime: TimeInterval?, scope: TokenScope = .full)
        async throws -> IssuedToken
    {
        let token = TokenSecret.generate()
        let record = try await database.insertToken(
            accountID: accountID, name: name, tokenHash: TokenSecret.hash(token), createdAt: now,
            expiresAt: lifetime.map { now.addingTimeInterval($0) }, scope: scope)
        return IssuedToken(token: token, record: record)
    }

}

/// What a request asks of its token. The one rule of which token scope may call what: a full
/// token opens everything its account may do; a metrics token (pasted into a phone app) opens
/// only the metrics upload, and a gate token (the browser extension, a phone automation) only the
/// gate's answer and its unlock, so that neither can read or change anything else if it leaks.
/// A pairing code opens nothing.
public enum TokenAccess: Sendable {
    /// Any route of the account: reads, writes, tokens, the metric totals.
    case account
    /// `POST /api/metrics`: health data arriving from a phone.
    case metricsUpload
    /// `GET /api/gate` and `POST /api/gate/unlock`: the shield asking whether to let a site through.
    case gate

    /// The token scopes that open it.
    public var scopes: Set<TokenScope> {
        switch self {
        case .account: [.full]
        case .metricsUpload: [.full, .metrics]
        case .gate: [.full, .gate]
        }
    }
}

/// The secret of an API token and the only form in which it is stored.
public enum TokenSecret {
    static let prefix = "mp_"

    /// `mp_` and 32 random bytes from the system's secure generator, in URL-safe base64.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return prefix + base64
    }

    /// The SHA-256 that is stored and looked up.
    public static func hash(_ token: String) -> String { SHA256Digest.hex(Data(token.utf8)) }

    /// A cheap check before any lookup: the shape `generate` makes.
    static func looksValid(_ token: String) -> Bool {
        token.utf8.count == prefix.utf8.count + 43 && token.hasPrefix(prefix)
    }
}
