import Foundation
import MorningProofCore

/// What the account, token and daily-update use cases read and write: accounts with their
/// clocks, API tokens by their SHA-256, and the seed API's daily updates. Served by SQLite
/// (`AppDatabase`) and by PostgreSQL (`PostgresStore`, which conforms in its own module); the
/// stores only read and write, the rules stay in Core and in the services, so both engines behave
/// alike.
public protocol AccountStore: Sendable {
    /// Creates an account; nil when the email is taken (in any case).
    func createAccount(email: String, passwordHash: String, timeZone: String?, at instant: Date) async throws
        -> AccountProfile?
    /// The account id and password hash behind an email (in any case), for signing in.
    func credentials(email: String) async throws -> (id: Int64, passwordHash: String)?
    /// The account with this email (in any case).
    func accountID(email: String) async throws -> Int64?
    func profile(of id: Int64) async throws -> AccountProfile?
    /// Changes what is given of an account's zone, day start and week start; a real change of the
    /// clock is recorded with its instant (travel). Nil when there is no such account.
    func changeProfile(of id: Int64, timeZone: String?, dayStart: Int?, weekStart: Int?, at instant: Date)
        async throws -> AccountProfile?

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

    /// Stores the update `make` returns for the account the token signs in, unless its day has one
    /// already (`inserted` false then): of simultaneous requests for one day exactly one is
    /// stored. Nil for a bad token (or one of another scope than `scopes`).
    func insertDailyUpdate(
        tokenHash: String, at now: Date, scopes: Set<TokenScope>,
        _ make: @escaping @Sendable (AccountProfile) throws -> DailyUpdate
    ) async throws -> (update: DailyUpdate, inserted: Bool)?
    /// The account a token signs in, with its days with an update, its zone changes and the update
    /// of the day `day` picks for it, from one snapshot. Nil for a bad token (or one of another
    /// scope than `scopes`).
    func dailyUpdateHistory(
        tokenHash: String, at now: Date, scopes: Set<TokenScope>, day: @escaping @Sendable (AccountProfile) -> LocalDay?
    ) async throws -> (account: AccountProfile, history: DailyUpdateHistory)?
}

extension AccountStore {
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

    /// `insertDailyUpdate` for a full-scope token.
    public func insertDailyUpdate(
        tokenHash: String, at now: Date, _ make: @escaping @Sendable (AccountProfile) throws -> DailyUpdate
    ) async throws -> (update: DailyUpdate, inserted: Bool)? {
        try await insertDailyUpdate(tokenHash: tokenHash, at: now, scopes: [.full], make)
    }

    /// `dailyUpdateHistory` for a full-scope token.
    public func dailyUpdateHistory(
        tokenHash: String, at now: Date, day: @escaping @Sendable (AccountProfile) -> LocalDay?
    ) async throws -> (account: AccountProfile, history: DailyUpdateHistory)? {
        try await dailyUpdateHistory(tokenHash: tokenHash, at: now, scopes: [.full], day: day)
    }
}
