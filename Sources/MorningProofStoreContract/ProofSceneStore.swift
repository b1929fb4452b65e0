import Foundation
import MorningProofCore

/// The scene signatures of the account's photo proofs (features, never the photos), so that a later
/// proof that is a copy of one (cropped, turned, re-exposed, mirrored) is refused as a repeat.
public protocol ProofSceneStore: AccountScopedStore {
    /// The scenes of the account's latest `limit` proofs, newest first.
    func proofScenes(limit: Int) async throws -> [ProofScene]
    /// Keeps the scene of a proof of habit `scene.habitID` (one of this account's).
    func keepProofScene(_ scene: ProofScene, at instant: Date) async throws
}

/// The scene of one photo proof: its habit, the day it proved, `SceneSignature.data`, and the
/// photo's difference hash (a copy that hash tells is refused by the evidence's own words).
public struct ProofScene: Sendable, Equatable {
    public var habitID: Int64
    public var day: LocalDay
    public var signature: Data
    public var perceptualHash: Int64

    public init(habitID: Int64, day: LocalDay, signature: Data, perceptualHash: Int64) {
        self.habitID = habitID
        self.day = day
        self.signature = signature
        self.perceptualHash = perceptualHash
    }
}
