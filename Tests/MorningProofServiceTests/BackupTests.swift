import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite struct BackupTests {
    let folder: URL
    let path: String
    let backups: DatabaseBackups

    init() throws {
        folder = try InterchangeFixtures.temporaryFolder()
        path = folder.appendingPathComponent("data/morningproof.sqlite").path
        backups = DatabaseBackups(databasePath: path)
    }

    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    /// One habit with `days` entries, written in one transaction by an import.
    static func batch(_ number: Int, days: Int) -> ImportBatch {
        let now = at("2026-03-09T12:00:00Z")
        let first = LocalDay("2025-01-01")!
        return ImportBatch(habits: [
            PortableHabit(
                name: "Habit \(number)", createdDay: first, createdAt: now,
                entries: (0..<days).map {
                    PortableEntry(day: first.adding(days: $0), status: .done, source: .import, recordedAt: now, zone: "UTC")
                })
        ])
    }

    @Test func aBackupTakenWhileAnotherWriterWritesIsWholeAndConsistent() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(path: path)
        _ = try await database.importBatch(Self.batch(0, days: 50), merge: true, apply: true)
        // Another process's connection (as `watch` has), adding a habit and its 50 entries per
        // transaction while the backups are taken.
        let path = self.path
        let finished = Locked(false)
        let writer = Task.detached {
            defer { finished.withLock { $0 = true } }
            let other = try AppDatabase.open(path: path)
            for number in 1...150 { _ = try await other.importBatch(Self.batch(number, days: 50), merge: true, apply: true) }
        }
        // Backups one after another until the writer is done (at least three, at most thirty).
        var copies: [String] = []
        while copies.count < 3 || (copies.count < 30 && !finished.withLock({ $0 })) {
            let copy = folder.appendingPathComponent("copy-\(copies.count).sqlite").path
            try database.backup(to: copy)
            copies.append(copy)
        }
        try await writer.value
        copies.append(try backups.backup(database, to: nil, keep: nil, now: Self.at("2026-03-09T12:00:00Z")).path)
        for copy in copies {
            #expect(try InterchangeFixtures.sqlite3(copy, "PRAGMA integrity_check;") == "ok\n", "\(copy)")
            // One moment's data: every habit with all of its entries, never half a transaction.
            let counts = try InterchangeFixtures.sqlite3(copy, "SELECT COUNT(*) FROM habit; SELECT COUNT(*) FROM entry;")
                .split(separator: "\n").compactMap { Int($0) }
            #expect(counts.count == 2 && counts[0] >= 1 && counts[1] == 50 * counts[0], "\(copy): \(counts)")
            // A whole file, without a -wal beside it, that MorningProof opens.
            #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
            await #expect(try AppDatabase.open(path: copy).habits().count == counts[0])
        }
        #expect(try InterchangeFixtures.sqlite3(copies.last!, "SELECT COUNT(*) FROM habit;") == "151\n")
    }

    @Test func copiesGoToTheBackupsFolderAndKeepRotatesThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(path: path)
        let backups = folder.appendingPathComponent("data/backups")
        try FileManager.default.createDirectory(at: backups, withIntermediateDirectories: true)
        for name in ["notes.txt", "before-restore-2026-01-01T000000Z.sqlite"] {
            try Data().write(to: backups.appendingPathComponent(name))
        }
        var outcomes: [BackupOutcome] = []
        for time in ["2026-03-07T07:00:00Z", "2026-03-08T07:00:00Z", "2026-03-09T07:00:00Z", "2026-03-09T07:00:00Z"] {
            outcomes.append(try self.backups.backup(database, to: nil, keep: 2, now: Self.at(time)))
        }
        #expect(outcomes.map { URL(fileURLWithPath: $0.path).lastPathComponent } == [
            "morningproof-2026-03-07T070000Z.sqlite", "morningproof-2026-03-08T070000Z.sqlite",
            "morningproof-2026-03-09T070000Z.sqlite", "morningproof-2026-03-09T070000Z-2.sqlite",
        ])
        #expect(outcomes[2].removed == [backups.path + "/morningproof-2026-03-07T070000Z.sqlite"])
        #expect(outcomes[3].removed == [backups.path + "/morningproof-2026-03-08T070000Z.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted() == [
            "before-restore-2026-01-01T000000Z.sqlite", "morningproof-2026-03-09T070000Z-2.sqlite",
            "morningproof-2026-03-09T070000Z.sqlite", "notes.txt",
        ])
        #expect(outcomes[0].bytes > 0)
    }

    @Test func rotationKeepsTheNewestCopiesOnly() {
        let names = [
            "morningproof-2026-03-09T070000Z-2.sqlite", "morningproof-2026-03-09T070000Z.sqlite",
            "morningproof-2026-03-08T235959Z.sqlite", "morningproof-2026-03-10T000000Z.sqlite.partial",
            "morningproof-notadate-xx.sqlite", "mine.sqlite", "morningproof-2026-03-09T070000Z-10.sqlite",
        ]
        #expect(DatabaseBackups.rotation(names, keep: 2) == [
            "morningproof-2026-03-08T235959Z.sqlite", "morningproof-2026-03-09T070000Z.sqlite",
        ])
        #expect(DatabaseBackups.rotation(names, keep: 5) == [])
    }

    @Test func aNamedFileIsNeverOverwritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(path: path)
        let file = folder.appendingPathComponent("mine.sqlite").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: MorningProofError.usage("\(file) already exists; name a new file (a backup never overwrites one)")) {
            try backups.backup(database, to: file, keep: nil, now: Self.at("2026-03-09T07:00:00Z"))
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
    }

    @Test func restorePutsABackupBackAndKeepsTheReplacedDatabase() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(path: path)
        _ = try await database.importBatch(Self.batch(1, days: 3), merge: true, apply: true)
        let copy = try backups.backup(database, to: nil, keep: nil, now: Self.at("2026-03-08T07:00:00Z")).path
        _ = try await database.importBatch(Self.batch(2, days: 3), merge: true, apply: true)

        let outcome = try await backups.restore(from: copy, now: Self.at("2026-03-09T07:00:00Z"))
        #expect(outcome.habits == 1)
        #expect(outcome.keptAt == folder.appendingPathComponent("data/backups/before-restore-2026-03-09T070000Z.sqlite").path)
        await #expect(try AppDatabase.open(path: path).habits().map(\.name) == ["Habit 1"])
        await #expect(try AppDatabase.open(path: outcome.keptAt!).habits().map(\.name) == ["Habit 1", "Habit 2"])
        // The database opened before the restore sees the restored data too.
        await #expect(try database.habits().map(\.name) == ["Habit 1"])
        // Reading the backup left nothing beside it: it is still one file.
        let beside = try FileManager.default.contentsOfDirectory(atPath: (copy as NSString).deletingLastPathComponent)
        #expect(beside.filter { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }.isEmpty, "\(beside.sorted())")
    }

    @Test func restoreRefusesANewerSchemaAndChangesNothing() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try AppDatabase.open(path: path)
        _ = try await database.importBatch(Self.batch(1, days: 3), merge: true, apply: true)
        let newer = try backups.backup(database, to: folder.appendingPathComponent("newer.sqlite").path, keep: nil, now: Date()).path
        try InterchangeFixtures.sqlite3(newer, "INSERT INTO grdb_migrations VALUES ('v99-from-the-future');")
        _ = try await database.importBatch(Self.batch(2, days: 3), merge: true, apply: true)
        await #expect(throws: StoreError(.badFile, value: newer,
            "\(newer) was written by a newer MorningProof (schema v99-from-the-future); upgrade morningproof to use it. The file was left as it was"
        )) {
            try await backups.restore(from: newer, now: Self.at("2026-03-09T07:00:00Z"))
        }
        await #expect(try database.habits().count == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/backups").path))

        let text = folder.appendingPathComponent("notes.sqlite").path
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        await #expect(throws: StoreError(.badFile, value: text,
            "\(text) is not a MorningProof database (not an SQLite file)")) {
            try await backups.restore(from: text, now: Date())
        }
        await #expect(throws: StoreError(.missingFile, value: "\(folder.path)/gone.sqlite", "\(folder.path)/gone.sqlite: no such file")) {
            try await backups.restore(from: folder.path + "/gone.sqlite", now: Date())
        }
        await #expect(try database.habits().count == 2)
    }
}
