import Foundation
import MorningProofCore
import MorningProofStore
import PhotoVerification

/// Turns a made verdict into a habit's proof: fingerprints, capture-day check, and the store write.
struct PhotoProof {
    let session: Session
    let habit: Habit

    /// What happened to one photo offered as proof.
    struct Result {
        var recorded: RecordOutcome?
        var refusal: String?
        /// The EXIF capture time as ISO 8601 with offset, or nil when the photo has none.
        var captureTime: String?
    }

    /// Records `judgement` of the photo at `path` as today's proof, or says why it is refused.
    func offer(path: String, judgement: PhotoJudgement) throws -> Result {
        let day = session.today
        var result = Result()
        switch ProofPolicy.decide(
            captureTime: judgement.info.captureTime, captureOffset: judgement.info.captureOffset, today: day,
            clock: session.clock)
        {
        case .refused(let reason, let capture):
            result.captureTime = capture?.text
            result.refusal = reason
            return result
        case .accepted(let capture):
            result.captureTime = capture?.text
        }
        let sha = try Self.sha256(path: path)
        let evidence = PhotoEvidence(
            sha256: sha, perceptualHash: judgement.hash.signedValue, captureTime: result.captureTime,
            verdict: "made", confidence: judgement.verdict.confidence,
            features: Self.featuresJSON(judgement.verdict.features), recordedAt: session.now)
        let entry = Entry(
            habitID: habit.id, day: day, status: .done, source: .photo, recordedAt: session.now,
            zone: session.clock.zoneIdentifier)
        switch try session.database.recordProof(entry, evidence: evidence, maxDistance: ProofPolicy.maxHashDistance) {
        case .duplicate(let match):
            result.refusal = ProofPolicy.repeatReason(of: match.day, sameFile: match.sameFile, distance: match.distance)
        case .recorded(let outcome):
            result.recorded = outcome
        }
        return result
    }

    /// SHA-256 of a file's bytes as lowercase hex.
    static func sha256(path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MorningProofError.ioError("cannot read \(path) to fingerprint it")
        }
        return SHA256Digest.hex(data)
    }

    static func featuresJSON(_ features: [String: Double]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(features)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
