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
    /// Deliveries of one notification tried in one day before it is given up.
    public static let maxAttemptsPerDay = 5

    /// What a new claim takes over from a stored one.
    public struct Takeover: Sendable, Equatable {
        /// The error to keep with the claim: the stored one, or why the previous claim was abandoned.
        public var lastError: String?
    }

    /// How long after the start of a failed attempt the next may start: 1, 2, 4, then 8 minutes
    /// after attempts 1 to 4, so that a pass every second does not spend a day's attempts at once.
    public static func retryDelay(afterAttempts attempts: Int) -> TimeInterval {
        60 * Double(1 << min(max(attempts, 1) - 1, 10))
    }

    /// When a notification that failed `attempts` times, the last attempt claimed at `claimedAt`,
    /// may be tried again; nil when the attempts ran out.
    public static func nextAttempt(afterAttempts attempts: Int, claimedAt: Date, maxAttempts: Int) -> Date? {
        attempts < maxAttempts ? claimedAt.addingTimeInterval(retryDelay(afterAttempts: attempts)) : nil
    }

    /// How the day's first claim of a notification is stored: held by the pass that delivers it
    /// now (attempt 1, its token, the time), or queued for the next pass (no attempt, no holder),
    /// which takes it over at once (`takeover`).
    public static func firstClaim(queued: Bool, token: String, at now: Date)
        -> (attempts: Int, token: String?, claimedAt: Date?)
    {
        queued ? (0, nil, nil) : (1, token, now)
    }

    /// A delivered notification is never claimed again; a failed one is, until `maxAttempts`, once
    /// its back-off (`retryDelay`) has passed; a claimed one only when its claim is older than
    /// `lease` seconds (its pass died mid-delivery). Nil: leave it.
    public static func takeover(
        state: NotificationState, attempts: Int, claimedAt: Date?, lastError: String?, now: Date,
        lease: TimeInterval, maxAttempts: Int
    ) -> Takeover? {
        guard attempts < maxAttempts else { return nil }
        switch state {
        case .delivered:
            return nil
        case .failed:
            if let claimedAt, now < claimedAt.addingTimeInterval(retryDelay(afterAttempts: attempts)) { return nil }
            return Takeover(lastError: lastError)
        case .claimed:
            // Queued (`ClaimRequest.queued`): claimed for a pass, no pass has tried yet.
            if attempts == 0 { return Takeover(lastError: lastError) }
            guard let claimedAt, now.timeIntervalSince(claimedAt) > lease else { return nil }
            return Takeover(lastError: "a pass claimed it at \(claimedAt) and did not finish")
        }
    }
}
