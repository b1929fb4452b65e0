import Foundation
import MorningProofCore

/// A reminder of one account's habit that the server's pass claims together with others.
public struct FirstReminder: Sendable, Equatable {
    public var accountID: Int64
    public var habitID: Int64
    /// `NotificationEvent.key(.reminder, habitID:)`.
    public var key: String
    public var day: LocalDay
    /// The event to store and deliver.
    public var event: String

    public init(accountID: Int64, habitID: Int64, key: String, day: LocalDay, event: String) {
        self.accountID = accountID
        self.habitID = habitID
        self.key = key
        self.day = day
        self.event = event
    }
}

/// The day's first claims of many accounts' reminders in one write: the server's pass claims the
/// reminders of the next accounts it visits together instead of in a transaction each, which is
/// most of a pass's round trips on PostgreSQL.
public protocol ReminderClaimStore: Sendable {
    /// Claims each of `reminders` that nothing is stored for yet (its key and day), whose habit is
    /// its account's and has no entry that day, and whose account's zone or day start has not
    /// changed since `zoneSteadySince` (a travel day is `decideAndClaim`'s to judge): held at `now`
    /// as attempt 1 with a token of its own, as `NotificationStore.decideAndClaim`'s first claim.
    /// Returns the claims made; a reminder left out is left to `decideAndClaim`.
    func claimFirstReminders(_ reminders: [FirstReminder], zoneSteadySince: Date, at now: Date) async throws
        -> [NotificationClaim]
    /// Stamps each of `claims` as held at `now` again (its lease starts over) while its token
    /// still holds it, and returns those; a claim another pass took over after its lease, or that
    /// was settled since, is left out. The pass renews the claims it made ahead when their visit
    /// came late, so that none expires while it is being delivered.
    func renewClaims(_ claims: [NotificationClaim], at now: Date) async throws -> [NotificationClaim]
}
