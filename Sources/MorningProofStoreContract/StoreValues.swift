import Foundation
import MorningProofCore

/// What clearing a day removed.
public struct ClearedDay: Equatable, Sendable {
    public var entry: Entry?
    public var answer: CheckinAnswer?
    /// The undo happened before the day's latest change (`LastWriter`): nothing was removed.
    public var superseded: Bool

    public init(entry: Entry?, answer: CheckinAnswer?, superseded: Bool = false) {
        self.entry = entry
        self.answer = answer
        self.superseded = superseded
    }
}

/// What a photo proof rests on, stored with the entry it proved.
public struct PhotoEvidence: Sendable, Equatable {
    /// SHA-256 of the file's bytes, 64 lowercase hex digits.
    public var sha256: String
    /// The 64-bit difference hash of the photo's pixels, as SQLite's signed integer.
    public var perceptualHash: Int64
    /// When the camera says the photo was taken (ISO 8601 with offset), if it says.
    public var captureTime: String?
    /// "made" (only made verdicts are stored as proof).
    public var verdict: String
    public var confidence: Double
    /// Every measured feature, as a JSON object.
    public var features: String
    public var recordedAt: Date

    public init(
        sha256: String, perceptualHash: Int64, captureTime: String?, verdict: String, confidence: Double,
        features: String, recordedAt: Date
    ) {
        self.sha256 = sha256
        self.perceptualHash = perceptualHash
        self.captureTime = captureTime
        self.verdict = verdict
        self.confidence = confidence
        self.features = features
        self.recordedAt = recordedAt
    }
}

/// What `recordProof` did.
public enum ProofOutcome: Equatable, Sendable {
    /// The entry was recorded (or already there) and the evidence stored with it.
    case recorded(RecordOutcome)
    /// The photo repeats evidence of another day: nothing was stored.
    case duplicate(EvidenceMatch)
}

/// An API token as it is listed: never the token itself, which is not stored.
public struct APIToken: Sendable, Equatable {
    public var id: Int64
    public var accountID: Int64
    /// The account's email, nil for an owner without one.
    public var email: String?
    public var name: String
    public var createdAt: Date
    /// Nil: never expires.
    public var expiresAt: Date?
    /// What the token may do: everything its account may, or only post metrics.
    public var scope: TokenScope

    /// Public, so that another store (PostgreSQL's) can return tokens too.
    public init(
        id: Int64, accountID: Int64, email: String?, name: String, createdAt: Date, expiresAt: Date?,
        scope: TokenScope = .full
    ) {
        self.id = id
        self.accountID = accountID
        self.email = email
        self.name = name
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.scope = scope
    }
}

/// What a token may do, stored with it (`api_token.scope`). Which routes each scope opens is
/// `TokenService`'s rule; the stores only find a token among the scopes they are given.
public enum TokenScope: String, Sendable, CaseIterable, Codable {
    /// Everything the account may do (a sign-in, a script's token).
    case full
    /// Only `POST /api/metrics`: the token pasted into a phone's Health Auto Export.
    case metrics
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

/// A habit with its judged history as of a day: what status, reports, the gate and reminders read.
public struct HabitProgress: Sendable {
    public let habit: Habit
    public let timeline: HabitTimeline

    public init(habit: Habit, timeline: HabitTimeline) {
        self.habit = habit
        self.timeline = timeline
    }

    /// Done, skipped, pending or not due today.
    public var state: TodayState { timeline.todayState }
}
