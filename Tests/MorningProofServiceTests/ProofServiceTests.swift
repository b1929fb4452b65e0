import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import PhotoVerification
import TestFixtures
import Testing

@testable import MorningProofService

/// The committed bed scenes (scripts/make-scenes).
private enum Scenes {
    static func judge(_ name: String) async throws -> PhotoJudgement {
        try BedVerifier().verify(path: SampleImages.path("scenes/\(name)"))
    }
}

@Suite struct ProofServiceTests {
    let database: AppDatabase
    let habit: Habit
    let service: ProofService

    init() async throws {
        database = try AppDatabase.inMemory()
        habit = try await database.addHabit(
            Habit(
                name: "Make bed", kind: .photo, createdDay: LocalDay("2026-11-17")!,
                createdAt: Self.at("2026-11-17T07:00:00Z")))
        service = ProofService(database: database, clock: DayClock(zoneIdentifier: "UTC")!)
    }

    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func offer(_ photo: String, at text: String) async throws -> PhotoProofOutcome? {
        try await service.offer(try Scenes.judge(photo), habit: habit, now: Self.at(text))
    }

    func entry(_ day: String) async throws -> Entry? {
        try await database.entry(habitID: habit.id, day: LocalDay(day)!)
    }

    @Test func aMadePhotoRecordsTodayWithItsEvidence() async throws {
        let outcome = try await offer("made-1.jpg", at: "2026-11-18T08:00:00Z")
        #expect(outcome == PhotoProofOutcome(day: LocalDay("2026-11-18")!, recorded: .recorded))
        await #expect(try entry("2026-11-18")?.source == .photo)
        let evidence = try database.evidence(habitID: habit.id, day: LocalDay("2026-11-18")!)
        await #expect(evidence.map(\.sha256) == [try Scenes.judge("made-1.jpg").sha256])
        #expect(evidence.first?.captureTime == nil)
        #expect(evidence.first?.verdict == "made")
    }

    @Test func anExifTimeOfTodayIsKeptAsTheCaptureTime() async throws {
        let outcome = try await offer("made-2-exif-2026-11-18.jpg", at: "2026-11-18T09:00:00Z")
        #expect(outcome?.recorded == .recorded)
        #expect(outcome?.refusal == nil)
        #expect(outcome?.captureTime == "2026-11-18T07:45:00+01:00")
        #expect(
            try database.evidence(habitID: habit.id, day: LocalDay("2026-11-18")!).map(\.captureTime)
                == ["2026-11-18T07:45:00+01:00"])
    }

    @Test func anExifTimeOfAnotherDayIsRefusedAndStoresNothing() async throws {
        let outcome = try await offer("made-2-exif-2026-11-18.jpg", at: "2026-11-20T08:00:00Z")
        #expect(
            outcome
                == PhotoProofOutcome(
                    day: LocalDay("2026-11-20")!, refusal: "it was taken on 2026-11-18, not 2026-11-20",
                    captureTime: "2026-11-18T07:45:00+01:00"))
        await #expect(try database.entries(habitID: habit.id).isEmpty)
    }

    @Test func theSameFileOnAnotherDayIsRefused() async throws {
        _ = try await offer("made-1.jpg", at: "2026-11-18T08:00:00Z")
        let again = try await offer("made-1.jpg", at: "2026-11-19T08:00:00Z")
        #expect(
            again == PhotoProofOutcome(day: LocalDay("2026-11-19")!, refusal: "this photo already proved 2026-11-18"))
        await #expect(try entry("2026-11-19") == nil)
    }

    @Test func aReEncodedCopyOnAnotherDayIsRefused() async throws {
        _ = try await offer("made-1.jpg", at: "2026-11-18T08:00:00Z")
        let copy = try await offer("made-1-smaller-copy.jpg", at: "2026-11-19T08:00:00Z")
        #expect(copy?.recorded == nil)
        #expect(
            copy?.refusal == "this photo already proved 2026-11-18 (a copy of the same picture, 0 of 64 bits differ)")
        await #expect(try entry("2026-11-19") == nil)
        // A different photo still proves the day.
        await #expect(try offer("made-3.jpg", at: "2026-11-19T08:00:00Z")?.recorded == .recorded)
    }

    @Test func aSecondPhotoOfTheSameDayIsKeptAsEvidence() async throws {
        _ = try await offer("made-1.jpg", at: "2026-11-18T08:00:00Z")
        await #expect(try offer("made-3.jpg", at: "2026-11-18T09:00:00Z")?.recorded == .unchanged)
        #expect(try database.evidence(habitID: habit.id, day: LocalDay("2026-11-18")!).count == 2)
    }

    @Test func aPhotoJudgedNotMadeIsNotOffered() async throws {
        let judgement = try await Scenes.judge("unmade-1.jpg")
        #expect(judgement.verdict.made == false)
        await #expect(try service.offer(judgement, habit: habit, now: Self.at("2026-11-18T08:00:00Z")) == nil)
        await #expect(try database.entries(habitID: habit.id).isEmpty)
    }

    @Test func theDayComesFromTheServicesClock() async throws {
        let tokyo = ProofService(database: database, clock: DayClock(zoneIdentifier: "Asia/Tokyo")!)
        let outcome = try await tokyo.offer(
            try Scenes.judge("made-1.jpg"), habit: habit, now: Self.at("2026-11-18T20:00:00Z"))
        #expect(outcome?.day == LocalDay("2026-11-19")!)
        await #expect(try entry("2026-11-19")?.zone == "Asia/Tokyo")
    }

    // MARK: - prove: the one action both front ends call

    @Test func provingByIdRecordsTheDayAndGivesTheStreakAfterwards() async throws {
        let proof = try await service.prove(
            try Scenes.judge("made-1.jpg"), habitID: habit.id, now: Self.at("2026-11-18T08:00:00Z"))
        #expect(proof.habit.id == habit.id)
        #expect(proof.day == LocalDay("2026-11-18")!)
        #expect(proof.outcome == PhotoProofOutcome(day: LocalDay("2026-11-18")!, recorded: .recorded))
        #expect(proof.progress.timeline.currentStreak == 1)
        await #expect(try entry("2026-11-18")?.source == .photo)
    }

    @Test func aPhotoNotMadeProvesNothingButStillGivesTheHabit() async throws {
        let proof = try await service.prove(
            try Scenes.judge("unmade-1.jpg"), habit: habit, now: Self.at("2026-11-18T08:00:00Z"))
        #expect(proof.outcome == nil)
        #expect(proof.progress.timeline.currentStreak == 0)
        await #expect(try database.entries(habitID: habit.id).isEmpty)
    }

    @Test func provingAHabitOfAnotherKindIsRefusedAndStoresNothing() async throws {
        let manual = try await database.addHabit(
            Habit(name: "Read", createdDay: LocalDay("2026-11-17")!, createdAt: Self.at("2026-11-17T07:00:00Z")))
        let judgement = try await Scenes.judge("made-1.jpg")
        await #expect(throws: MorningProofError.self) {
            try await service.prove(judgement, habitID: manual.id, now: Self.at("2026-11-18T08:00:00Z"))
        }
        await #expect(try database.entries(habitID: manual.id).isEmpty)
    }

    @Test func provingAnUnknownHabitIsNotFound() async throws {
        let judgement = try await Scenes.judge("made-1.jpg")
        await #expect(throws: StoreError.noHabit(999)) {
            try await service.prove(judgement, habitID: 999, now: Self.at("2026-11-18T08:00:00Z"))
        }
    }
}
