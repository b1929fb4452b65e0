import Foundation
import MorningProofCore

/// One notification of one day, as stored.
public struct StoredNotification: Sendable, Hashable {
    public var key: String
    public var day: LocalDay
    /// The event, as the JSON delivered to hooks.
    public var event: String
    public var state: NotificationState
    public var attempts: Int
    public var lastError: String?
    public var claimedAt: Date?
    public var deliveredAt: Date?
    public var createdAt: Date

    public init(
        key: String, day: LocalDay, event: String, state: NotificationState, attempts: Int, lastError: String?,
        claimedAt: Date?, deliveredAt: Date?, createdAt: Date
    ) {
        self.key = key
        self.day = day
        self.event = event
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.claimedAt = claimedAt
        self.deliveredAt = deliveredAt
        self.createdAt = createdAt
    }
}

/// The right, held by one pass, to deliver one notification once.
public struct NotificationClaim: Sendable, Hashable {
    public var key: String
    public var day: LocalDay
    /// The event to deliver (the one stored by the first claim of the day).
    public var event: String
    /// 1 for the first attempt of the day.
    public var attempt: Int
    /// Identifies this claim, so that a pass whose lease ran out cannot settle another's claim.
    public var token: String

    public init(key: String, day: LocalDay, event: String, attempt: Int, token: String) {
        self.key = key
        self.day = day
        self.event = event
        self.attempt = attempt
        self.token = token
    }
}

/// What a pass asks for in one write transaction: record an automatic entry, then claim a notification.
public struct ClaimRequest: Sendable {
    /// When the notification may be claimed at all.
    public enum Condition: Sendable {
        case always
        /// Only while the habit has no entry (done or skipped) on the request's day: reminders.
        case habitHasNoEntry(habitID: Int64)
    }

    public var key: String
    public var day: LocalDay
    public var event: String
    /// An automatic entry to record first (a manual entry still wins).
    public var entry: Entry?
    public var condition: Condition
    /// True: claim it for the next pass to deliver (an ingest, an import, which deliver nothing
    /// themselves), stored as claimed with no attempt yet; false: this pass claims it to deliver now.
    public var queued: Bool

    public init(
        key: String, day: LocalDay, event: String, entry: Entry? = nil, condition: Condition = .always,
        queued: Bool = false
    ) {
        self.key = key
        self.day = day
        self.event = event
        self.entry = entry
        self.condition = condition
        self.queued = queued
    }
}

/// What the deciding transaction did.
public struct ClaimDecision: Sendable {
    /// What recording the automatic entry did, when one was asked for.
    public var entryOutcome: RecordOutcome?
    /// The claim, when this pass is the one to deliver.
    public var claim: NotificationClaim?
    /// True when a queued request (`ClaimRequest.queued`) made the day's claim: of racing
    /// requests, one only.
    public var queued: Bool

    public init(entryOutcome: RecordOutcome? = nil, claim: NotificationClaim? = nil, queued: Bool = false) {
        self.entryOutcome = entryOutcome
        self.claim = claim
        self.queued = queued
    }
}
