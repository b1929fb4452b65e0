import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import PhotoVerification
import TestFixtures
import Testing

@testable import MorningProofService

/// Reference photos of a photo habit: with them, a proof must show the same place, and must not be a
/// copy of one; without them, any made bed proves the day as before.
@Suite struct ReferencePhotoTests {
    let database: AppDatabase
    let habit: Habit
    let proofs: ProofService
    let references: ReferencePhotoService
    static let morning = ISO8601DateFormatter().date(from: "2026-11-18T08:00:00Z")!

    init() async throws {
        database = try AppDatabase.inMemory()
        habit = try await database.addHabit(
            Habit(name: "Make bed", kind: .photo, createdDay: LocalDay("2026-11-17")!, createdAt: Self.morning))
        let clock = DayClock(zoneIdentifier: "UTC")!
        proofs = ProofService(database: database, clock: clock)
        references = ReferencePhotoService(database: database, clock: clock)
    }

    static func scene(_ name: String) -> PhotoInput { .file(path: SampleImages.path("scenes/\(name)")) }

    func prove(_ name: String) async throws -> PhotoProof {
        let results = try await proofs.prove(
            [Self.scene(name)], habit: habit, now: Self.morning, judging: PhotoJudging(), workers: 1)
        return try #require(try results.first?.get())
    }

    func today() async throws -> Entry? { try await database.entry(habitID: habit.id, day: LocalDay("2026-11-18")!) }

    @Test func withReferencesAMadeBedInAnotherRoomIsRefusedAndNothingIsRecorded() async throws {
        _ = try await references.add(Self.scene("made-3.jpg"), to: habit, now: Self.morning)
        let proof = try await prove("made-2.jpg")
        #expect(proof.judgement.verdict.made)
        #expect(proof.kind == .refused(reason: "this does not look like the bedroom in your reference photos"))
        await #expect(try today() == nil)
    }

    @Test func withReferencesAnotherViewOfTheSamePlaceProvesTheDay() async throws {
        // The reference: the left 85% of the room's photo, a little darker; the proof: the whole photo.
        let room = try ImageDecoder.decode(
            path: SampleImages.path("scenes/made-1.jpg"), workingLongSide: BedVerifier.workingLongSide
        ).raster
        let left = room.cropped(x: 0, y: 0, width: room.width * 85 / 100, height: room.height).exposed(by: 0.8)
        let added = try await database.addReferencePhoto(
            NewReferencePhoto(
                width: left.width, height: left.height, signature: SceneSignature(left).data, addedAt: Self.morning),
            habitID: habit.id, limit: ReferencePhotoService.limit)
        #expect(added?.number == 1)
        let proof = try await prove("made-1.jpg")
        #expect(proof.kind == .recordedNow, "\(String(describing: proof.outcome))")
        await #expect(try today()?.source == .photo)
    }

    @Test func aCopyOfAReferenceIsRefusedAsARepeat() async throws {
        _ = try await references.add(Self.scene("made-1.jpg"), to: habit, now: Self.morning)
        let proof = try await prove("made-1-smaller-copy.jpg")
        #expect(proof.kind == .refused(reason: "it repeats reference photo 1: take a new photo"))
        await #expect(try today() == nil)
    }

    @Test func withoutReferencesAnyMadeBedStillProvesTheDay() async throws {
        #expect(try await prove("made-2.jpg").kind == .recordedNow)
    }

    @Test func aHabitHoldsFiveReferencesWhichAreListedNumberedAndRemoved() async throws {
        for _ in 0..<5 { _ = try await references.add(Self.scene("made-3.jpg"), to: habit, now: Self.morning) }
        await #expect(throws: MorningProofError.self) {
            try await references.add(Self.scene("made-2.jpg"), to: habit, now: Self.morning)
        }
        #expect(try await references.list(habit).map(\.number) == [1, 2, 3, 4, 5])
        #expect(try await references.list(habit).first?.width == 640)
        try await references.remove(number: 2, of: habit)
        #expect(try await references.list(habit).map(\.number) == [1, 2, 3, 4])
        await #expect(throws: MorningProofError.self) { try await references.remove(number: 5, of: habit) }
    }

    @Test func aManualHabitTakesNoReferencesAndAnotherAccountSeesNone() async throws {
        let walk = try await database.addHabit(
            Habit(name: "Walk", kind: .manual, createdDay: LocalDay("2026-11-17")!, createdAt: Self.morning))
        await #expect(throws: MorningProofError.self) {
            try await references.add(Self.scene("made-3.jpg"), to: walk, now: Self.morning)
        }
        _ = try await references.add(Self.scene("made-3.jpg"), to: habit, now: Self.morning)
        let other = try await database.createAccount(
            email: "bo@example.com", passwordHash: "x", timeZone: "UTC", at: Self.morning)
        let theirs = database.scoped(to: try #require(other).id)
        #expect(try await theirs.referencePhotos(habitID: habit.id).isEmpty)
        #expect(try await theirs.removeReferencePhoto(habitID: habit.id, number: 1) == false)
        await #expect(throws: StoreError.self) {
            try await theirs.addReferencePhoto(
                NewReferencePhoto(width: 1, height: 1, signature: Data(), addedAt: Self.morning), habitID: habit.id,
                limit: 5)
        }
        #expect(try await references.list(habit).count == 1)
    }
}
