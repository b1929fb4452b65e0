import Foundation
import MorningProofCore
import MorningProofService

/// What a photo proof did: the verdict, and what happened to the day.
struct ProofJSON: Encodable, Sendable {
    let made: Bool
    let confidence: Double
    let reasons: [String]
    let width: Int
    let height: Int
    /// The day the photo was offered for (today for the account).
    let day: String
    /// True when the day is done by this photo or was done already (the photo kept as evidence).
    let recorded: Bool
    /// The rule that refused the photo (a repeat of another day's, taken on another day).
    let proofRefused: String?
    /// When the photo says it was taken; left out when it does not say.
    let captureTime: String?
    let habit: HabitResourceJSON

    init(_ proof: PhotoProof) {
        let (judgement, outcome) = (proof.judgement, proof.outcome)
        made = judgement.verdict.made
        confidence = (judgement.verdict.confidence * 1000).rounded() / 1000
        reasons = judgement.verdict.reasons
        width = judgement.info.width
        height = judgement.info.height
        day = proof.day.description
        recorded = outcome?.refusal == nil && outcome?.recorded != nil
        proofRefused = outcome?.refusal
        captureTime = outcome?.captureTime
        habit = HabitResourceJSON(proof.habit, progress: proof.progress)
    }
}
