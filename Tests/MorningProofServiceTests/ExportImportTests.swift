import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite struct ExportImportTests {
    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }
    static let now = at("2026-03-09T12:00:00Z")
    static let clock = DayClock(zoneIdentifier: "Europe/Istanbul")!

    /// A database with a bit of everything: a photo habit with evidence, a metric goal with values,
    /// an archived habit, notes, skips, instants with milliseconds and entries from other zones.
    static func filled() async throws -> AppDatabase {
        let database = try AppDatabase.inMemory()
        let bed = try await database.addHabit(
            Habit(
                name: "Make bed", kind: .photo, remindAt: 7 * 60, required: true, note: "before coffee",
                createdDay: LocalDay("2026-03-01")!, createdAt: at("2026-03-01T06:00:00.123Z")))
        let proof = PhotoEvidence(
            sha256: String(repeating: "0f", count: 32), perceptualHash: Int64.min + 5,
            captureTime: "2026-03-02T07:45:00+03:00", verdict: "made", confidence: 0.9521,
            features: #"{"colourEntropy":3.2510000000000003,"smoothShare":0.61}"#, recordedAt: at("2026-03-02T04:50:00.999Z"))
        _ = try await database.recordProof(
            Entry(habitID: bed.id, day: LocalDay("2026-03-02")!, status: .done, source: .photo,
                  recordedAt: at("2026-03-02T04:50:00.999Z"), zone: "Europe/Istanbul"),
            evidence: proof, maxDistance: 6)
        try await database.record(
            Entry(habitID: bed.id, day: LocalDay("2026-03-03")!, status: .skipped, note: "hotel, \"no\" bed",
                  recordedAt: at("2026-03-03T19:00:00.001Z"), zone: "Asia/Tokyo"))
        let walk = try await database.addHabit(
            Habit(
                name: "Walk", kind: .metric, schedule: .timesPerWeek(5),
                goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000),
                createdDay: LocalDay("2026-02-20")!, createdAt: at("2026-02-20T10:00:00Z")))
        for (day, steps) in [("2026-02-21", 8412.0), ("2026-02-22", 10001.5)] {
            try await database.record(
                Entry(habitID: walk.id, day: LocalDay(day)!, status: .done, value: steps, source: .metric,
                      recordedAt: at("\(day)T21:00:00Z"), zone: "Europe/Istanbul"))
        }
        var old = try await database.addHabit(
            Habit(name: "Old café", schedule: .timesInDays(times: 2, days: 5), createdDay: LocalDay("2025-01-01")!,
                  createdAt: at("2025-01-01T00:00:00Z")))
        old.archived = true
        try await database.updateHabit(old)
        return database
    }

    @Test func exportThenImportRoundTripsByteForByte() async throws {
        let original = try await Self.filled()
        let first = try await ExportService(database: original, clock: Self.clock).export(.json, now: Self.now)
        #expect(first.habits == 3 && first.entries == 4)
        let folder = try InterchangeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("export.json")
        try first.data.write(to: file)

        let copy = try AppDatabase.inMemory()
        let service = ImportService(
            database: copy, clock: DayClock(zoneIdentifier: "UTC")!, loopBackupReader: SQLiteLoopBackupReader()
        )
        let plan = try await service.run(.json(file.path), merge: true, apply: true, now: Self.at("2027-01-01T00:00:00Z"))
        #expect(plan.habitsCreated == 3 && plan.entriesAdded == 4 && plan.warnings.isEmpty)
        let second = try await ExportService(database: copy, clock: Self.clock).export(.json, now: Self.now)
        #expect(String(decoding: second.data, as: UTF8.self) == String(decoding: first.data, as: UTF8.self))
        #expect(second.data == first.data)

        // What was imported is what was there, evidence included.
        let bed = try await copy.findHabit(named: "Make bed")
        #expect(try copy.evidence(habitID: bed.id, day: LocalDay("2026-03-02")!).first?.perceptualHash == Int64.min + 5)
        await #expect(try copy.entry(habitID: bed.id, day: LocalDay("2026-03-03")!)?.zone == "Asia/Tokyo")
        await #expect(try copy.findHabit(named: "Old café").archived)

        // Importing it again adds nothing.
        await #expect(try service.run(.json(file.path), merge: true, apply: true, now: Self.now).isEmpty)
        await #expect(try ExportService(database: copy, clock: Self.clock).export(.json, now: Self.now).data == first.data)
    }

    @Test func theCSVHasOneRowPerHabitPerDay() async throws {
        let export = try await ExportService(database: try Self.filled(), clock: Self.clock).export(.csv, now: Self.now)
        let lines = String(decoding: export.data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.first == "habit,date,state,value,source,note")
        #expect(lines.contains("Make bed,2026-03-02,done,,photo,"))
        #expect(lines.contains("Make bed,2026-03-03,skipped,,manual,\"hotel, \"\"no\"\" bed\""))
        #expect(lines.contains("Make bed,2026-03-09,open,,,"))
        #expect(lines.contains("Walk,2026-02-22,done,10001.5,metric,"))
        // From each habit's first day through today (the archived one too).
        #expect(lines.filter { $0.hasPrefix("Make bed,") }.count == 9)
        #expect(lines.filter { $0.hasPrefix("Old café,") }.count == 433)
    }

    @Test func aMergeKeepsEveryDayAlreadyHereAndNoMergeRefuses() async throws {
        let database = try await Self.filled()
        let folder = try InterchangeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An export in which the bed was done on 03-03 (skipped here) and on 03-04 (empty here).
        var document = try await database.exportDocument()
        document.habits[0].entries[1].status = .done
        document.habits[0].entries.append(
            PortableEntry(day: LocalDay("2026-03-04")!, status: .done, source: .manual, recordedAt: Self.now, zone: "UTC"))
        let file = folder.appendingPathComponent("other.json")
        try document.encoded().write(to: file)
        let service = ImportService(database: database, clock: Self.clock, loopBackupReader: SQLiteLoopBackupReader())
        await #expect(throws: MorningProofError.self) {
            try await service.run(.json(file.path), merge: false, apply: true, now: Self.now)
        }
        await #expect(try database.entry(habitID: 1, day: LocalDay("2026-03-04")!) == nil)
        let plan = try await service.run(.json(file.path), merge: true, apply: true, now: Self.now)
        #expect(plan.habitsMerged == 3 && plan.entriesAdded == 1 && plan.conflicts == 1)
        await #expect(try database.entry(habitID: 1, day: LocalDay("2026-03-03")!)?.status == .skipped)
        await #expect(try database.entry(habitID: 1, day: LocalDay("2026-03-04")!)?.status == .done)
    }

    @Test func anImportThatFailsMidwayStoresNothing() async throws {
        let folder = try InterchangeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("live.sqlite").path
        let database = try AppDatabase.open(path: path)
        // The database refuses the last day of the harsh fixture, long after the first rows went in.
        try InterchangeFixtures.sqlite3(
            path,
            "CREATE TRIGGER refuse BEFORE INSERT ON entry WHEN NEW.day = '2026-03-09' AND NEW.note = 'Leg day' "
                + "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;")
        let service = ImportService(
            database: database, clock: InterchangeFixtures.utc, loopBackupReader: SQLiteLoopBackupReader()
        )
        let harsh = InterchangeFixtures.folder.appendingPathComponent("harsh").path
        await #expect(throws: StoreError.self) {
            try await service.run(.harsh(harsh), merge: true, apply: true, now: InterchangeFixtures.now)
        }
        await #expect(try database.habits(includeArchived: true).isEmpty)
        #expect(try InterchangeFixtures.sqlite3(path, "SELECT COUNT(*) FROM entry;") == "0\n")
    }
}
