import Foundation
import MorningProofCore

/// Notifications of habits, each delivered once per day (`NotificationRules`).
public protocol NotificationStore: Sendable {
    /// Records the request's entry and claims its notification in the same write transaction, so
    /// that of two passes racing, exactly one gets the claim. A failed claim is given back until
    /// the day's last attempt; a claim held past `lease` seconds (its pass died
    /// mid-delivery) is taken over.
    func decideAndClaim(_ request: ClaimRequest, at now: Date, lease: TimeInterval) async throws -> ClaimDecision
    /// Marks a claimed notification delivered; false when the claim was no longer this pass's.
    func markDelivered(_ claim: NotificationClaim, at now: Date) async throws -> Bool
    /// Gives a claim back after its delivery failed, with the error, for the next pass to try again.
    func markFailed(_ claim: NotificationClaim, error: String) async throws
    /// The keys, among `keys`, whose notification of `day` needs nothing more: delivered, or
    /// given up after the last attempt.
    func settledNotificationKeys(_ keys: [String], day: LocalDay) async throws -> Set<String>
    /// Notifications of `day` and later, newest day first.
    func notifications(since day: LocalDay) async throws -> [StoredNotification]
}
