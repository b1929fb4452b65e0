import Foundation
import GRDB
import MorningProofCore

/// The MorningProof database: one SQLite file behind one `Sendable` value.
/// Migrations are registered here, named, and never edited once landed.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter

    /// Opens (and creates or migrates) the database at `path`. A file that is not a MorningProof
    /// database, a corrupt one, or one from a newer MorningProof is refused and left as it was.
    public static func open(path: String) throws -> AppDatabase {
        let url = URL(fileURLWithPath: path)
        try DatabaseProbe.check(path: path, knownMigrations: migrator.migrations)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw MorningProofError.ioError(
                "cannot create \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        return try translatingErrors(path: path) {
            let pool = try DatabasePool(path: path, configuration: configuration)
            return try AppDatabase(pool)
        }
    }

    /// A private database in memory, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: configuration))
    }

    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try migrateAllowingRaces(writer)
    }

    static var configuration: Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        return config
    }

    /// Two processes may open a new file at once and race to the same migration; the loser
    /// finds it applied on the next try.
    private func migrateAllowingRaces(_ writer: any DatabaseWriter) throws {
        if try writer.read({ try Self.migrator.hasCompletedMigrations($0) }) { return }
        var attempt = 0
        while true {
            do {
                try Self.migrator.migrate(writer)
                return
            } catch {
                attempt += 1
                if try writer.read({ try Self.migrator.hasCompletedMigrations($0) }) { return }
                if attempt >= 3 { throw error }
            }
        }
    }

    /// Runs `body` in a write transaction; GRDB errors become MorningProof errors.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.translatingErrors(path: writer.path) { try writer.write(body) }
    }

    /// Runs `body` on a consistent snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.translatingErrors(path: writer.path) { try writer.read(body) }
    }

    static func translatingErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                throw MorningProofError(
                    .busy, "\(path): the database stayed busy (another morningproof is writing); try again")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                throw MorningProofError.ioError("\(path): the database file is damaged (\(error.message ?? "corrupt"))")
            case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_PERM:
                throw MorningProofError.ioError("\(path): \(error.message ?? "cannot open the database")")
            default:
                throw MorningProofError.ioError("\(path): database error: \(error.message ?? "\(error)")")
            }
        }
    }
}

/// Looks at an existing file before anything writes to it.
enum DatabaseProbe {
    static func check(path: String, knownMigrations: [String]) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue { throw MorningProofError.ioError("\(path) is a directory, not a database file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MorningProofError.ioError("\(path): cannot read the database file")
        }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        try? handle.close()
        if header.isEmpty { return }
        guard header.count >= 16, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw MorningProofError.ioError(
                "\(path) is not a MorningProof database (not an SQLite file); it was left as it was")
        }
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(10)
        let applied: Set<String>
        do {
            let queue = try DatabaseQueue(path: path, configuration: config)
            applied = try queue.read { db -> Set<String> in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                if tables.isEmpty { return [] }
                guard tables.contains("grdb_migrations"), tables.contains("habit") else {
                    throw MorningProofError.ioError(
                        "\(path) is not a MorningProof database (an SQLite file of another program); it was left as it was"
                    )
                }
                return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
            }
            try queue.close()
        } catch let error as DatabaseError {
            throw MorningProofError.ioError(
                "\(path): the database file is damaged or unreadable (\(error.message ?? "\(error.resultCode)")); it was left as it was"
            )
        }
        let unknown = applied.subtracting(knownMigrations)
        if !unknown.isEmpty {
            throw MorningProofError.ioError(
                "\(path) was written by a newer MorningProof (schema \(unknown.sorted().joined(separator: ", "))); upgrade morningproof to use it. The file was left as it was"
            )
        }
    }
}
