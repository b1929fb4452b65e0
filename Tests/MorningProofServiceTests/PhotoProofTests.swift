import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import PhotoVerification
import TestFixtures
import Testing

@testable import MorningProofService

/// Work run on the caller's task, counted: the proof judges its photo through the pool it is given.
private final class CountingWork: CPUWork {
    private let runs = Locked(0)
    var count: Int { runs.withLock { $0 } }

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        runs.withLock { $0 += 1 }
        return try body()
    }
}

/// `ProofService`'s entry points that take the photo itself: bytes in (the server's upload) or
/// files (`verify --habit`), judged, offered and recorded in one call, the proof's kind out.
@Suite struct PhotoProofTests {
    let database: AppDatabase
    let habit: Habit
    let service: ProofService

    init() async throws {
        // The same account, habit and service as the tests of a judged photo's offer.
        let proofs = try await ProofServiceTests()
        (database, habit, service) = (proofs.database, proofs.habit, proofs.service)
    }

    static func bytes(_ name: String) throws -> PhotoInput {
        .bytes(try Data(contentsOf: SampleImages.url(name)))
    }

    func prove(_ name: String, at text: String, habitID: Int64? = nil, cpu: any CPUWork = CountingWork())
        async throws -> PhotoProof
    {
        try await service.prove(
            try Self.bytes("scenes/\(name)"), habitID: habitID ?? habit.id, now: ProofServiceTests.at(text), cpu: cpu)
    }

    @Test func bytesInGiveEachKindOfProof() async throws {
        let cpu = CountingWork()
        let first = try await prove("made-1.jpg", at: "2026-11-18T08:00:00Z", cpu: cpu)
        #expect(first.kind == .recordedNow)
        #expect(cpu.count == 1)
        #expect(first.judgement.verdict.made && first.judgement.sha256 != nil)
        #expect(first.progress.timeline.currentStreak == 1)
        await #expect(try database.entry(habitID: habit.id, day: LocalDay("2026-11-18")!)?.source == .photo)

        #expect(try await prove("made-3.jpg", at: "2026-11-18T09:00:00Z").kind == .alreadyRecorded)
        #expect(
            try await prove("made-1.jpg", at: "2026-11-19T08:00:00Z").kind
                == .refused(reason: "this photo already proved 2026-11-18"))
        let unmade = try await prove("unmade-1.jpg", at: "2026-11-19T08:00:00Z")
        #expect(unmade.kind == .notMade && unmade.outcome == nil)
        await #expect(try database.entry(habitID: habit.id, day: LocalDay("2026-11-19")!) == nil)
    }

    @Test func anUploadIsJudgedWithinTheServersPixelLimit() {
        #expect(PhotoJudging.upload.maxPixels == 50_000_000)
        #expect(PhotoJudging.upload.verifier.threshold == BedVerifier().threshold)
    }

    /// The habit is looked up before the photo is decoded, so that a photo for a habit that is not
    /// there (or is another account's) costs no CPU: an outsider's 38-byte WebP decodes to 50
    /// megapixels in 2.3 s. Bytes that are no photo, for a habit that is not there: the habit's error,
    /// and nothing ran on the CPU pool.
    @Test func theHabitIsLookedUpBeforeThePhotoIsDecoded() async throws {
        let work = CountingWork()
        await #expect(throws: StoreError.noHabit(999)) {
            try await service.prove(
                .bytes(Data("not a photo".utf8)), habitID: 999, now: ProofServiceTests.at("2026-11-18T08:00:00Z"),
                cpu: work)
        }
        #expect(work.count == 0)
        await #expect(throws: StoreError.noHabit(999)) {
            try await prove("made-1.jpg", at: "2026-11-18T08:00:00Z", habitID: 999)
        }
    }

    @Test func filesAreJudgedAtOnceAndOfferedInTheirOrder() async throws {
        let names = ["made-1.jpg", "missing.jpg", "made-3.jpg", "unmade-1.jpg"]
        let proofs = try await service.prove(
            names.map { .file(path: SampleImages.path("scenes/\($0)")) }, habit: habit,
            now: ProofServiceTests.at("2026-11-18T08:00:00Z"), judging: PhotoJudging(), workers: 3)
        #expect(proofs.count == 4)
        #expect(try proofs[0].get().kind == .recordedNow)
        #expect(throws: PhotoError.self) { try proofs[1].get() }
        // A second photo of the same day is kept as evidence.
        #expect(try proofs[2].get().kind == .alreadyRecorded)
        #expect(try proofs[3].get().kind == .notMade)
        #expect(try database.evidence(habitID: habit.id, day: LocalDay("2026-11-18")!).count == 2)
    }

    @Test func filesOfferedToAHabitOfAnotherKindAreNotJudged() async throws {
        let manual = try await database.addHabit(
            Habit(
                name: "Read", createdDay: LocalDay("2026-11-17")!,
                createdAt: ProofServiceTests.at("2026-11-17T07:00:00Z")))
        await #expect(throws: MorningProofError.self) {
            try await service.prove(
                [.file(path: SampleImages.path("scenes/made-1.jpg"))], habit: manual,
                now: ProofServiceTests.at("2026-11-18T08:00:00Z"), judging: PhotoJudging(), workers: 1)
        }
        await #expect(try database.entries(habitID: manual.id).isEmpty)
    }
}
