import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import TestFixtures

/// The Loop and harsh data this project made (Tests/Fixtures/loop, Tests/Fixtures/harsh), and a
/// folder of its own for each test.
enum InterchangeFixtures {
    static let folder = Fixtures.folder

    /// "Today" of the fixtures: 2026-03-09, noon UTC.
    static let now = ISOInstant.parse("2026-03-09T12:00:00Z")!
    static let utc = DayClock(zoneIdentifier: "UTC")!

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("morningproof-interchange-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `sqlite3 FILE` with `input` on its standard input; returns what it prints.
    @discardableResult
    static func sqlite3(_ file: String, _ input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-batch", file]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw FixtureError("sqlite3 is needed to build the Loop backup (scripts/bootstrap installs it): \(error)")
        }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError("sqlite3 failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A real Loop backup, built by sqlite3 from Tests/Fixtures/loop/backup.sql in `folder`.
    static func loopBackup(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("Loop Habits Backup 2026-03-09.db").path
        let script = try String(contentsOf: Self.folder.appendingPathComponent("loop/backup.sql"), encoding: .utf8)
        try sqlite3(path, script)
        return path
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension AppDatabase {
    /// The progress of the habit named `name` as of the fixtures' today.
    func progress(named name: String, today: LocalDay = LocalDay("2026-03-09")!) async throws -> HabitProgress {
        try await progress(of: findHabit(named: name), today: today)
    }
}
