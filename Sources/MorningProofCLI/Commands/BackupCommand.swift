import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract

/// `morningproof backup`: a consistent copy of the database, safe while `watch` runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database, consistently, even while watch or cron keeps writing.",
        discussion: """
            The copy is made with SQLite's online backup API, so it is one moment's data however busy \
            the database is, and it is checked (PRAGMA integrity_check) before it is given its name. \
            Without FILE it goes to backups/ beside the database, named by the time in UTC \
            (morningproof-2026-03-09T071500Z.sqlite); --keep N then removes all but the newest N \
            copies there. `morningproof restore FILE` puts a copy back.
            Examples:
              morningproof backup
              morningproof backup --keep 7          # daily from cron: a week of copies
              morningproof backup ~/morningproof-before-trip.sqlite
            """)

    @Argument(
        help: ArgumentHelp(
            "The file to write (default: a new file in backups/ beside the database).", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("Keep only the newest N copies in backups/ (not with FILE).", valueName: "n"))
    var keep: Int?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validating {
            if let keep, keep < 1 { throw MorningProofError.usage("--keep takes 1 or more copies, not \(keep)") }
            if keep != nil, file != nil {
                throw MorningProofError.usage("--keep rotates the copies in backups/; it does not go with a FILE")
            }
        }
    }

    func run() async throws {
        let session = try await global.session()
        let backups = DatabaseBackups(databasePath: DatabaseLocation.resolve(explicit: global.databasePath))
        let outcome = try backups.backup(session.database, to: file, keep: keep, now: session.now)
        if session.json {
            struct BackupJSON: Encodable {
                var path: String
                var bytes: Int64
                var removed: [String]
            }
            return try Console.json(BackupJSON(path: outcome.path, bytes: outcome.bytes, removed: outcome.removed))
        }
        var line = "Backed up to \(outcome.path) (\(OutputFile.size(outcome.bytes)))."
        if !outcome.removed.isEmpty {
            line += " Removed \(ImportText.count(outcome.removed.count, "older copy", "older copies"))."
        }
        Console.out(line)
    }
}

/// `morningproof restore FILE`: put a backup back, keeping the database it replaces.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of the database, keeping the replaced one aside.",
        discussion: """
            FILE must be a whole MorningProof database (it is checked first); one written by a newer \
            MorningProof is refused (exit 65), and then nothing changes. The database in place is first \
            copied to backups/before-restore-<time>.sqlite beside it, so a restore can itself be undone. \
            An older backup is brought up to this version's schema.
            Example: morningproof restore ~/.local/share/morningproof/backups/morningproof-2026-03-09T071500Z.sqlite
            """)

    @Argument(help: ArgumentHelp("The backup to restore.", valueName: "file"))
    var file: String

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let backups = DatabaseBackups(databasePath: DatabaseLocation.resolve(explicit: global.databasePath))
        let outcome = try await backups.restore(from: file, now: try global.instant())
        if global.json {
            struct RestoreJSON: Encodable {
                var restored: String
                var keptAt: String?
                var habits: Int
            }
            return try Console.json(RestoreJSON(restored: file, keptAt: outcome.keptAt, habits: outcome.habits))
        }
        Console.out(
            "Restored \(file) (\(ImportText.count(outcome.habits, "habit")))."
                + (outcome.keptAt.map { " The database it replaced is kept as \($0)." } ?? ""))
    }
}
