import Foundation
import MorningProofCore
import MorningProofInterchange

extension PhotoEvidence {
    /// Evidence as the stores keep it: the features as a JSON object with sorted keys.
    public init(_ evidence: PortableEvidence) {
        self.init(
            sha256: evidence.sha256, perceptualHash: evidence.perceptualHash, captureTime: evidence.captureTime,
            verdict: evidence.verdict, confidence: evidence.confidence,
            features: (try? SortedJSON.string(evidence.features)) ?? "{}",
            recordedAt: evidence.recordedAt)
    }
}

extension PortableEvidence {
    /// Stored evidence, its features read back from their JSON (none when they do not parse).
    public init(_ evidence: PhotoEvidence) {
        let features = try? JSONDecoder().decode([String: Double].self, from: Data(evidence.features.utf8))
        self.init(
            sha256: evidence.sha256, perceptualHash: evidence.perceptualHash, captureTime: evidence.captureTime,
            verdict: evidence.verdict, confidence: evidence.confidence, features: features ?? [:],
            recordedAt: evidence.recordedAt)
    }
}
