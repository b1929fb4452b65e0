import Foundation
import MorningProofCore

/// Photo proofs: an entry with the evidence it rests on.
public protocol ProofStore: AccountScopedStore {
    /// Records `entry` with its photo evidence in one transaction, unless the photo repeats the
    /// account's evidence of another day (`ProofPolicy.repeated`): then nothing changes.
    func recordProof(_ entry: Entry, evidence: PhotoEvidence, maxDistance: Int) async throws -> ProofOutcome
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
