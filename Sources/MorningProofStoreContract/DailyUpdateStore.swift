import Foundation
import MorningProofCore

/// The seed API's daily updates (`/api/age/daily-update`, `/api/stats/summary`): one a day per account,
/// reached through the token that signs the account in.
public protocol DailyUpdateStore: Sendable {
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

extension DailyUpdateStore {
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

/// What the check-in summary reads, from one snapshot.
public struct DailyUpdateHistory: Sendable {
    /// Every day with an update, oldest first.
    public var days: [LocalDay]
    /// The account's zone changes, oldest first.
    public var zoneChanges: [ZoneChange]
    /// The update of the day asked for, if it has one.
    public var update: DailyUpdate?

    /// Public, so that another store (PostgreSQL's) can return a history too.
    public init(days: [LocalDay], zoneChanges: [ZoneChange], update: DailyUpdate?) {
        self.days = days
        self.zoneChanges = zoneChanges
        self.update = update
    }
}
