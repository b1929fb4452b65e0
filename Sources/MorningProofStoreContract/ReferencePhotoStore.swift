import Foundation
import MorningProofCore

/// A photo habit's reference photos of the person's own made bed, kept as scene signatures: the
/// features a proof is matched against, never the photos.
public protocol ReferencePhotoStore: AccountScopedStore {
    /// The references of habit `habitID` (one of this account's), oldest first, numbered from 1.
    func referencePhotos(habitID: Int64) async throws -> [ReferencePhoto]
    /// Adds a reference to habit `habitID` unless it holds `limit` already (then nil, nothing stored);
    /// check and insert are one transaction.
    func addReferencePhoto(_ reference: NewReferencePhoto, habitID: Int64, limit: Int) async throws -> ReferencePhoto?
    /// Removes reference `number` (as `referencePhotos` numbers them) of habit `habitID`; false when none.
    func removeReferencePhoto(habitID: Int64, number: Int) async throws -> Bool
}

/// A reference photo to store: its size and scene signature.
public struct NewReferencePhoto: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `SceneSignature.data`: features, not pixels.
    public var signature: Data
    public var addedAt: Date

    public init(width: Int, height: Int, signature: Data, addedAt: Date) {
        self.width = width
        self.height = height
        self.signature = signature
        self.addedAt = addedAt
    }
}

/// A stored reference photo.
public struct ReferencePhoto: Sendable, Equatable {
    /// Its place among the habit's references, from 1, oldest first.
    public var number: Int
    /// The photo's size in pixels, as decoded.
    public var width: Int
    public var height: Int
    public var signature: Data
    public var addedAt: Date

    public init(number: Int, width: Int, height: Int, signature: Data, addedAt: Date) {
        self.number = number
        self.width = width
        self.height = height
        self.signature = signature
        self.addedAt = addedAt
    }
}
