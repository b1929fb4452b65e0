import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import PhotoVerification
import TestFixtures
import Testing

@testable import MorningProofService

/// Issue 39: "A proof that is a copy of a reference or of an earlier proof (cropped, turned,
/// re-exposed, mirrored) is refused as a repeat." The perceptual hash tells a re-encoded copy; the
/// scene check of earlier proofs tells a mirrored, cropped and darkened one too, of any earlier day
/// and of another habit, while another room's made bed still proves the next day.
@Suite struct ProofCopyTests {
    let database: AppDatabase
    let bed: Habit
    let proofs: ProofService
    let clock = DayClock(zoneIdentifier: "UTC")!

    init() async throws {
        database = try AppDatabase.inMemory()
        bed = try await database.addHabit(
            Habit(name: "Make bed", kind: .photo, createdDay: LocalDay("2026-11-17")!, createdAt: Self.at(17)))
        proofs = ProofService(database: database, clock: clock)
    }

    static func at(_ day: Int) -> Date { ISO8601DateFormatter().date(from: "2026-11-\(day)T08:00:00Z")! }

    func prove(_ name: String, _ habit: Habit, on day: Int) async throws -> PhotoProof {
        let results = try await proofs.prove(
            [.file(path: SampleImages.path("scenes/\(name)"))], habit: habit, now: Self.at(day),
            judging: PhotoJudging(), workers: 1)
        return try #require(try results.first?.get())
    }

    @Test func aMirroredCroppedDarkenedCopyOfAnEarlierProofIsRefusedAsARepeat() async throws {
        #expect(try await prove("made-1.jpg", bed, on: 18).kind == .recordedNow)
        let copy = try await prove("made-1-mirrored-copy.jpg", bed, on: 19)
        #expect(copy.judgement.verdict.made)
        #expect(
            copy.kind
                == .refused(
                    reason: "this photo already proved 2026-11-18 (a copy of it, cropped, turned, re-exposed or "
                        + "mirrored): take a new photo"), "\(String(describing: copy.outcome))")
        await #expect(try database.entry(habitID: bed.id, day: LocalDay("2026-11-19")!) == nil)
        // A copy of it two days later, for another photo habit, is refused all the same.
        let desk = try await database.addHabit(
            Habit(name: "Tidy desk", kind: .photo, createdDay: LocalDay("2026-11-17")!, createdAt: Self.at(17)))
        #expect(
            try await prove("made-1-mirrored-copy.jpg", desk, on: 20).outcome?.refusal?.contains("2026-11-18") == true)
        // The re-encoded smaller copy is still refused (by its perceptual hash, or its scene).
        #expect(try await prove("made-1-smaller-copy.jpg", bed, on: 20).outcome?.refusal != nil)
    }

    @Test func anotherRoomsMadeBedProvesTheNextDays() async throws {
        #expect(try await prove("made-1.jpg", bed, on: 18).kind == .recordedNow)
        #expect(try await prove("made-2.jpg", bed, on: 19).kind == .recordedNow)
        #expect(try await prove("made-3.jpg", bed, on: 20).kind == .recordedNow)
        #expect(
            try await database.proofScenes(limit: 10).map(\.day.description) == [
                "2026-11-20", "2026-11-19", "2026-11-18",
            ])
    }
}
