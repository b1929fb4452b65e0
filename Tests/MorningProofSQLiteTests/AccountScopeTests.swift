import Foundation
import GRDB
import MorningProofCore
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

/// Every habit, entry, setting and gate unlock belongs to an account; one account never sees
/// another's, and the data from before accounts is the owner's.
@Suite struct AccountScopeTests {
    let at = Date(timeIntervalSince1970: 1_779_000_000)
    let day = LocalDay("2026-11-18")!

    func habit(_ name: String, kind: HabitKind = .manual) -> Habit {
        Habit(name: name, kind: kind, createdDay: LocalDay("2026-11-01")!, createdAt: at)
    }

    func done(_ habit: Habit, _ day: LocalDay, source: EntrySource = .manual) -> Entry {
        Entry(habitID: habit.id, day: day, status: .done, source: source, recordedAt: at, zone: "UTC")
    }

    /// The owner and a second account with a zone.
    func twoAccounts() async throws -> (owner: AppDatabase, other: AppDatabase) {
        let owner = try AppDatabase.inMemory()
        let account = try #require(
            try await owner.createAccount(email: "b@example.com", passwordHash: "x", timeZone: "Asia/Tokyo", at: at))
        return (owner, owner.scoped(to: account.id))
    }

    @Test func twoAccountsMayNameAHabitAlikeAndEachSeesItsOwn() async throws {
        let (owner, other) = try await twoAccounts()
        let mine = try await owner.addHabit(habit("Run"))
        let theirs = try await other.addHabit(habit("run"))
        await #expect(try owner.habits().map(\.id) == [mine.id])
        await #expect(try other.habits().map(\.id) == [theirs.id])
        await #expect(try other.findHabit(named: "Run").id == theirs.id)
        // Names stay unique within an account, in any case.
        await #expect(throws: StoreError.self) { try await other.addHabit(habit("RUN")) }
        // Another account's id is not found, to read, change or remove.
        await #expect(try other.habit(id: mine.id) == nil)
        var renamed = mine
        renamed.name = "Stolen"
        await #expect(throws: StoreError(.notFound, value: String(mine.id), "no habit with id \(mine.id)")) {
            try await other.updateHabit(renamed)
        }
        await #expect(throws: StoreError.self) { try await other.removeHabit(id: mine.id) }
        await #expect(try owner.habit(id: mine.id)?.name == "Run")
    }

    @Test func entriesAndEvidenceOfAnotherAccountsHabitAreOutOfReach() async throws {
        let (owner, other) = try await twoAccounts()
        let mine = try await owner.addHabit(habit("Make bed", kind: .photo))
        let theirs = try await other.addHabit(habit("Make bed", kind: .photo))
        let earlier = LocalDay(dayNumber: day.dayNumber - 3)
        try await owner.record(done(mine, earlier))
        await #expect(throws: StoreError.self) { try await other.record(done(mine, earlier)) }
        #expect(throws: StoreError.self) { try other.removeEntry(habitID: mine.id, day: earlier) }
        await #expect(throws: StoreError.self) { try await other.entries(habitID: mine.id) }
        await #expect(throws: StoreError.self) { try await other.clearDay(habitID: mine.id, day: earlier) }
        await #expect(throws: StoreError.self) {
            try await other.answerCheckin(habitID: mine.id, day: earlier, yes: true, at: at, zone: "UTC")
        }
        await #expect(try owner.entries(habitID: mine.id).count == 1)
        #expect(try other.dayStatuses().isEmpty)
        #expect(try other.dayStatuses(habitID: mine.id).isEmpty)
        #expect(try owner.dayStatuses().keys.sorted() == [mine.id])

        // A photo one account proved with does not count as a repeat for another.
        let evidence = PhotoEvidence(
            sha256: "aa", perceptualHash: 7, captureTime: nil, verdict: "made", confidence: 0.9, features: "{}",
            recordedAt: at)
        await #expect(try owner.recordProof(done(mine, day, source: .photo), evidence: evidence, maxDistance: 6)
            == .recorded(.recorded))
        let nextDay = LocalDay(dayNumber: day.dayNumber + 1)
        await #expect(try other.recordProof(done(theirs, nextDay, source: .photo), evidence: evidence, maxDistance: 6)
            == .recorded(.recorded))
        if case .duplicate = try await owner.recordProof(done(mine, nextDay, source: .photo), evidence: evidence, maxDistance: 6) {
        } else {
            Issue.record("the owner's own repeat should be refused")
        }
    }

    @Test func settingsGateUnlocksAndClocksAreTheAccounts() async throws {
        let (owner, other) = try await twoAccounts()
        try await owner.setSetting("checkin.question", to: "Did you pray?")
        try await other.setSetting("checkin.question", to: "Did you run?")
        await #expect(try owner.setting("checkin.question") == "Did you pray?")
        await #expect(try other.settings() == ["checkin.question": "Did you run?"])

        func unlocked(_ outcome: GateUnlockOutcome) -> Bool {
            if case .unlocked = outcome { return true }
            return false
        }
        await #expect(unlocked(try other.unlockGate(day: day, at: at, reason: "trip", limit: 2)))
        await #expect(try owner.gateUnlock(on: day) == nil)
        await #expect(unlocked(try owner.unlockGate(day: day, at: at, reason: "sick", limit: 2)))
        await #expect(try other.gateUnlocks(from: day, through: day).map(\.reason) == ["trip"])

        // Another account's clock is its profile; the owner's is the settings.
        await #expect(try other.clock().zoneIdentifier == "Asia/Tokyo")
        try await owner.changeClock(to: DayClock(zoneIdentifier: "Europe/Paris")!, at: at)
        await #expect(try owner.clock().zoneIdentifier == "Europe/Paris")
        await #expect(try other.clock().zoneIdentifier == "Asia/Tokyo")
        await #expect(throws: StoreError.self) { try await other.changeClock(to: DayClock(zoneIdentifier: "UTC")!, at: at) }
        let noZone = try #require(
            try await owner.createAccount(email: "c@example.com", passwordHash: "x", timeZone: nil, at: at))
        await #expect(throws: StoreError.self) { try await owner.scoped(to: noZone.id).clock() }
    }

    @Test func aDatabaseFromBeforeAccountsBecomesTheOwners() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-scope-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v6.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(queue, upTo: "v6-accounts")
            try await queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO habit (id, name, kind, schedule, createdDay, createdAt)
                            VALUES (7, 'Make bed', 'photo', 'daily', '2026-11-01', '2026-11-01 07:00:00.000');
                        INSERT INTO entry (habitId, day, status, source, recordedAt, zone)
                            VALUES (7, '2026-11-18', 'done', 'photo', '2026-11-18 07:00:00.000', 'UTC');
                        INSERT INTO evidence (entryId, sha256, perceptualHash, verdict, confidence, features, recordedAt)
                            VALUES (1, 'aa', 7, 'made', 0.9, '{}', '2026-11-18 07:00:00.000');
                        INSERT INTO setting (key, value) VALUES ('timezone', 'Europe/Istanbul');
                        INSERT INTO gateUnlock (day, at, reason) VALUES ('2026-11-18', '2026-11-18 07:00:00.000', 'sick');
                        """)
            }
        }
        let database = try AppDatabase.open(path: path)
        let habit = try await #require(try database.habit(id: 7))
        #expect(habit.name == "Make bed")
        await #expect(try database.entries(habitID: 7).map(\.day) == [day])
        #expect(try database.evidence(habitID: 7, day: day).map(\.sha256) == ["aa"])
        await #expect(try database.clock().zoneIdentifier == "Europe/Istanbul")
        await #expect(try database.gateUnlock(on: day)?.reason == "sick")
        // New habits keep counting after the old ids, and names are unique per account only.
        await #expect(try database.addHabit(self.habit("Run")).id == 8)
        await #expect(throws: StoreError.self) { try await database.addHabit(self.habit("make BED")) }
        await #expect(try database.scoped(to: 2).habits().isEmpty)
    }
}
