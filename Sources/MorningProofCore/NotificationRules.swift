import Foundation

/// Where a notification stands in its day.
public enum NotificationState: String, Sendable, Codable {
    /// A pass holds it and is delivering it now.
    case claimed
    /// Delivered once; it never fires again that day.
    case delivered
    /// The last delivery failed; the next pass tries again until the attempts run out.
    case failed
}

/// When a notification already claimed today may be claimed again: the once-a-day rule that the
/// store applies inside its write transaction.
public enum NotificationClaimRule {
    /// What a new claim takes over from a stored one.
    public struct Takeover: Sendable, Equatable {
        /// The error to keep with the claim: the stored one, or why the previous claim was abandoned.
        public var lastError: String?
    }

    /// A delivered notification is never claimed again; a failed one is, until `maxAttempts`; a claimed
    /// one only when its claim is older than `lease` seconds (its pass died mid-delivery). Nil: leave it.
    public static func takeover(
        state: NotificationState, attempts: Int, claimedAt: Date?, lastError: String?, now: Date,
        lease: TimeInterval, maxAttempts: Int
    ) -> Takeover? {
        guard attempts < maxAttempts else { return nil }
        switch state {
        case .delivered:
            return nil
        case .failed:
            return Takeover(lastError: lastError)
        case .claimed:
            guard let claimedAt, now.timeIntervalSince(claimedAt) > lease else { return nil }
            return Takeover(lastError: "a pass claimed it at \(claimedAt) and did not finish")
        }
    }
}
