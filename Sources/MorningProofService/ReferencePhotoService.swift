import Foundation
import MorningProofCore
import MorningProofStoreContract
import PhotoVerification

/// Reference photos of a photo habit: the person's own made bed, which every later proof must show.
/// Only their scene signatures are kept, never the photos.
public struct ReferencePhotoService: Sendable {
    /// References a habit holds at most.
    public static let limit = 5

    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// Adds `photo` as a reference of photo habit `habit`: decoded and measured on `cpu` (the photo is
    /// told first), then stored. A habit holding `limit` already is a conflict; nothing is stored.
    public func add(
        _ photo: PhotoInput, to habit: Habit, now: Date, judging: PhotoJudging = .upload, cpu: (any CPUWork)? = nil
    ) async throws -> ReferencePhoto {
        let measure = { @Sendable in try judging.reference(photo) }
        let measured = try await cpu?.run(measure) ?? measure()
        let habit = try ProofService(database: database, clock: clock).photoHabit(habit)
        let reference = NewReferencePhoto(
            width: measured.width, height: measured.height, signature: measured.signature.data, addedAt: now)
        guard let added = try await database.addReferencePhoto(reference, habitID: habit.id, limit: Self.limit) else {
            throw MorningProofError(
                .conflict, "\(habit.name) has \(Self.limit) reference photos already; remove one to add another")
        }
        return added
    }

    /// The references of habit `habit`, oldest first.
    public func list(_ habit: Habit) async throws -> [ReferencePhoto] {
        try await database.referencePhotos(habitID: habit.id)
    }

    /// Removes reference `number` of `habit`; not found when it has none with that number.
    public func remove(number: Int, of habit: Habit) async throws {
        guard try await database.removeReferencePhoto(habitID: habit.id, number: number) else {
            throw MorningProofError(.notFound, "\(habit.name) has no reference photo \(number)")
        }
    }
}

extension ProofService {
    /// The refusal of a proof that does not show the habit's place.
    public static let otherPlaceRefusal = "this does not look like the bedroom in your reference photos"

    /// How `judgement` compares with `references`: nil when there are none (or it was judged without its scene).
    static func sceneVerdict(_ judgement: PhotoJudgement, references: [ReferencePhoto]) -> SceneVerdict? {
        guard !references.isEmpty, let probe = judgement.scene else { return nil }
        let signatures = references.compactMap { SceneSignature(data: $0.signature) }
        guard !signatures.isEmpty else { return nil }
        return SceneMatcher().compare(probe, with: signatures)
    }

    /// Earlier proofs of the account a new proof is compared with for copies, newest first: the copy
    /// search is CPU work per earlier proof, so it is bounded.
    public static let copyCheckDepth = 30

    /// Why `judgement`'s scene refuses it as the proof of habit `habitID` on `day`: it does not show the
    /// place of the habit's `references`, or it copies one of them, or it copies an `earlier` proof of
    /// the account (cropped, turned, re-exposed or mirrored), of another day or another habit; nil when
    /// it may prove the day (or it was judged without its scene, or judged not made).
    static func sceneRefusal(
        _ judgement: PhotoJudgement, references: [ReferencePhoto], earlier: [ProofScene], habitID: Int64,
        day: LocalDay
    ) -> String? {
        guard judgement.verdict.made, let probe = judgement.scene else { return nil }
        if let refusal = sceneRefusal(sceneVerdict(judgement, references: references)) { return refusal }
        let matcher = SceneMatcher()
        let hash = judgement.hash.signedValue
        // A copy its difference hash tells is left to the evidence's check, which says so in its words.
        for proof in earlier
        where !(proof.habitID == habitID && proof.day == day)
            && (proof.perceptualHash ^ hash).nonzeroBitCount > ProofPolicy.maxHashDistance
        {
            guard let signature = SceneSignature(data: proof.signature),
                let copy = matcher.copyAlignment(probe, signature), copy.score >= matcher.copyScore
            else { continue }
            return "this photo already proved \(proof.day) (a copy of it, cropped, turned, re-exposed or mirrored): "
                + "take a new photo"
        }
        return nil
    }

    /// The rule of reference photos, written once: a proof must show the references' place, and must
    /// not be a copy of one of them; nil when it may prove the day.
    static func sceneRefusal(_ verdict: SceneVerdict?) -> String? {
        switch verdict {
        case nil, .samePlace: nil
        case .otherPlace: otherPlaceRefusal
        case .copy(let index, _): "it repeats reference photo \(index + 1): take a new photo"
        }
    }
}

/// A reference photo as `GET /api/habits/{id}/references` and `habit reference list --json` show it:
/// its number, size and when it was added; never its signature.
public struct ReferencePhotoJSON: Codable, Sendable, Equatable {
    public var number: Int
    public var width: Int
    public var height: Int
    /// ISO 8601 in the account's zone.
    public var addedAt: String

    public init(_ reference: ReferencePhoto, zone: TimeZone) {
        number = reference.number
        width = reference.width
        height = reference.height
        addedAt = ISOInstant.format(reference.addedAt, in: zone)
    }
}

/// A habit's reference photos, and how many it may hold.
public struct ReferencePhotosJSON: Codable, Sendable, Equatable {
    public var references: [ReferencePhotoJSON]
    public var limit: Int

    public init(_ references: [ReferencePhoto], zone: TimeZone) {
        self.references = references.map { ReferencePhotoJSON($0, zone: zone) }
        limit = ReferencePhotoService.limit
    }
}
