import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Where an account stands with its daily updates today.
public struct CheckinSummary: Sendable {
    /// Today for the account, on the server's clock.
    public var day: LocalDay
    public var timeZone: String
    public var currentStreak: Int
    public var longestStreak: Int
    /// Today's update; nil when there is none yet.
    public var today: DailyUpdate?
}

/// The seed API's daily check-in. The server decides the day from the account's zone and day
/// start; a client never sends one.
public struct DailyUpdateService: Sendable {
    public let database: any AccountStore

    public init(database: any AccountStore) {
        self.database = database
    }

    /// The summary of the account `token` signs in: the token check and the reads are one trip
    /// to the database, as every request of this API is frequent.
    public func summary(token: PresentedToken, now: Date) async throws -> CheckinSummary {
        guard let hash = token.hash,
            let (account, history) = try await database.dailyUpdateHistory(
                tokenHash: hash, at: token.at, scopes: TokenAccess.account.scopes, day: { $0.clock?.day(at: now) })
        else { throw await TokenService(database: database).refusal(for: token) }
        let clock = try Self.clock(of: account)
        let today = clock.day(at: now)
        let streak = DailyUpdateStreak.of(
            days: history.days, today: today, travelDays: history.zoneChanges.travelDays, clock: clock)
        return CheckinSummary(
            day: today, timeZone: clock.zoneIdentifier, currentStreak: streak.current, longestStreak: streak.longest,
            today: history.update)
    }

    /// Records today's update for the account `token` signs in; refused when today has one
    /// already (of simultaneous requests, exactly one wins).
    public func record(metrics: [String: JSONValue], score: Double?, token: PresentedToken, now: Date) async throws
        -> DailyUpdate
    {
        guard let hash = token.hash,
            let (update, inserted) = try await database.insertDailyUpdate(
                tokenHash: hash, at: token.at, scopes: TokenAccess.account.scopes,
                { account in
                    let clock = try Self.clock(of: account)
                    return DailyUpdate(
                        day: clock.day(at: now), score: score, metrics: metrics, recordedAt: now,
                        zone: clock.zoneIdentifier)
                })
        else { throw await TokenService(database: database).refusal(for: token) }
        guard inserted else {
            throw MorningProofError(.conflict, code: "already_completed", "Daily check-in already completed")
        }
        return update
    }

    private static func clock(of account: AccountProfile) throws -> DayClock {
        guard let clock = account.clock else {
            throw MorningProofError(
                .notFound, code: "no_timezone", "complete onboarding first: set your time zone in the profile")
        }
        return clock
    }
}
