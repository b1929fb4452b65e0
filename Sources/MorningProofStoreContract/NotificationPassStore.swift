import Foundation
import MorningProofCore

/// What the server's notification pass finds across every account, each in one query: it never
/// walks the accounts one by one to find out that nothing is due.
public protocol NotificationPassStore: Sendable {
    /// The habits, not archived, with a reminder or an at-most metric goal, of the accounts that
    /// have a time zone, each with its account; ordered by account.
    func notifiableHabits() async throws -> [NotifiableHabit]
    /// The slots, among `slots`, with nothing left to do: the habit has an entry (done or skipped)
    /// that day, or the notification is settled (delivered, or given up after the last attempt).
    func settledSlots(_ slots: [NotificationSlot]) async throws -> Set<NotificationSlot>
    /// The accounts with a time zone that have a channel and notifications of `day` or later
    /// waiting for a pass (queued by an ingest, failed with attempts left, or held by a pass that may
    /// have died), or metric days whose goals are not judged yet. An account without a channel is
    /// not visited for its waiting events every minute; they go out once it adds one.
    func accountsWithWaitingNotifications(since day: LocalDay) async throws -> [AccountProfile]
    /// The channels of each of `accounts` that has one (push subscriptions in the order they were
    /// made, ntfy, the webhook), in one read: the pass needs them for every account it visits.
    func notificationChannels(of accounts: [Int64]) async throws -> [Int64: AccountChannels]
}
