import Foundation
import MorningProofCore
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

@Suite struct EvidenceStoreTests {
    let at = Date(timeIntervalSince1970: 1_779_000_000)

    func evidence(sha: String, hash: Int64) -> PhotoEvidence {
        PhotoEvidence(
            sha256: sha, perceptualHash: hash, captureTime: nil, verdict: "made", confidence: 0.9,
            features: #"{"smoothShare":0.5}"#, recordedAt: at)
    }

    func setUp() async throws -> (AppDatabase, Habit) {
        let database = try AppDatabase.inMemory()
        let habit = try await database.addHabit(
            Habit(name: "Make bed", kind: .photo, createdDay: LocalDay("2026-11-01")!, createdAt: at))
        return (database, habit)
    }

    func entry(_ habit: Habit, _ day: String) -> Entry {
        Entry(habitID: habit.id, day: LocalDay(day)!, status: .done, source: .photo, recordedAt: at, zone: "UTC")
    }

    @Test func recordsTheEntryAndItsEvidenceTogether() async throws {
        let (database, habit) = try await setUp()
        let outcome = try await database.recordProof(
            entry(habit, "2026-11-18"), evidence: evidence(sha: "aa", hash: 0x0F0F), maxDistance: 6)
        #expect(outcome == .recorded(.recorded))
        await #expect(try database.entry(habitID: habit.id, day: LocalDay("2026-11-18")!)?.source == .photo)
        #expect(try database.evidence(habitID: habit.id, day: LocalDay("2026-11-18")!).map(\.sha256) == ["aa"])
    }

    @Test func aRepeatOnAnotherDayIsRefusedAndStoresNothing() async throws {
        let (database, habit) = try await setUp()
        try await database.recordProof(
            entry(habit, "2026-11-18"), evidence: evidence(sha: "aa", hash: 0x0F0F), maxDistance: 6)
        let same = try await database.recordProof(
            entry(habit, "2026-11-19"), evidence: evidence(sha: "aa", hash: 0x7777), maxDistance: 6)
        #expect(
            same
                == .duplicate(
                    EvidenceMatch(day: LocalDay("2026-11-18")!, habitID: habit.id, sameFile: true, distance: 8)))
        // Three bits away from 0x0F0F: a copy of the same picture.
        let close = try await database.recordProof(
            entry(habit, "2026-11-19"), evidence: evidence(sha: "bb", hash: 0x0F08), maxDistance: 6)
        #expect(
            close
                == .duplicate(
                    EvidenceMatch(day: LocalDay("2026-11-18")!, habitID: habit.id, sameFile: false, distance: 3)))
        await #expect(try database.entry(habitID: habit.id, day: LocalDay("2026-11-19")!) == nil)
        // Far enough apart: a different photo counts.
        let other = try await database.recordProof(
            entry(habit, "2026-11-19"), evidence: evidence(sha: "cc", hash: Int64(bitPattern: 0xFFFF_0000_FFFF_0000)),
            maxDistance: 6)
        #expect(other == .recorded(.recorded))
    }

    @Test func removingTheEntryRemovesItsEvidence() async throws {
        let (database, habit) = try await setUp()
        try await database.recordProof(entry(habit, "2026-11-18"), evidence: evidence(sha: "aa", hash: 1), maxDistance: 6)
        try database.removeEntry(habitID: habit.id, day: LocalDay("2026-11-18")!)
        #expect(
            try database.evidenceMatch(
                sha256: "aa", perceptualHash: 1, maxDistance: 6, otherThan: LocalDay("2026-11-19")!) == nil)
    }
}
