import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// What an existing file holds, read before anything writes to it: its first bytes, then (on the
/// connection that will serve the command) one read of its tables, migrations and journal mode.
enum DatabaseProbe {
    /// Whether `path` holds something to open; a missing or empty file is a new database.
    /// A directory or a file that is not SQLite is refused untouched.
    static func hasContent(path: String) throws -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue { throw StoreError.unavailable(path, "\(path) is a directory, not a database file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.unavailable(path, "\(path): cannot read the database file")
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        if header.isEmpty { return false }
        guard header.count == 16, header == Data("SQLite format 3\0".utf8) else {
            throw StoreError.unavailable(
                path, "\(path) is not a MorningProof database (not an SQLite file); it was left as it was")
        }
        return true
    }

    /// The schema a file holds, from one read transaction.
    struct Schema {
        /// Every migration the file records, known to this MorningProof or not.
        var applied: Set<String>
        /// Whether the file is already in WAL mode (the mode is stored in the file).
        var isWAL: Bool
    }

    /// Reads the schema of the file behind `db`. A file of another program is refused.
    static func schema(_ db: Database, path: String) throws -> Schema {
        let isWAL = try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal"
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let foreign = StoreError.unavailable(
            path, "\(path) is not a MorningProof database (an SQLite file of another program); it was left as it was")
        if tables.isEmpty { return Schema(applied: [], isWAL: isWAL) }
        guard tables.contains("grdb_migrations") else { throw foreign }
        let applied = try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
        // GRDB creates its grdb_migrations table before the first migration's transaction: a file
        // that holds only that, empty, is a new database that another process is migrating.
        if !tables.contains("habit"), !applied.isEmpty || !tables.isSubset(of: ["grdb_migrations", "sqlite_sequence"]) {
            throw foreign
        }
        return Schema(applied: applied, isWAL: isWAL)
    }

    /// Refuses a file whose schema records migrations this MorningProof does not know.
    static func refuseNewer(_ schema: Schema, knownMigrations: [String], path: String) throws {
        let unknown = schema.applied.subtracting(knownMigrations)
        if !unknown.isEmpty {
            throw StoreError.unavailable(
                path, "\(path) was written by a newer MorningProof (schema \(unknown.sorted().joined(separator: ", "))); upgrade morningproof to use it. The file was left as it was"
            )
        }
    }

    /// Checks a file on a connection of its own that only reads (a backup to restore, say):
    /// refuses a file that is not SQLite, another program's, damaged or from a newer MorningProof.
    static func check(path: String, knownMigrations: [String]) throws {
        guard try hasContent(path: path) else { return }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let schema = try refusingDamage(path: path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { try Self.schema($0, path: path) }
        }
        try refuseNewer(schema, knownMigrations: knownMigrations, path: path)
    }

    /// Runs `body`, which opens or reads a file not yet known to be sound: an SQLite error other
    /// than a busy database or a full disk means the file is damaged or unreadable.
    static func refusingDamage<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_FULL || (error.resultCode == .SQLITE_IOERR && DiskSpace.isFull(at: path))
        {
            throw StoreError.noSpace(path, "; it was left as it was")
        } catch let error as DatabaseError where error.resultCode != .SQLITE_BUSY && error.resultCode != .SQLITE_LOCKED
        {
            throw StoreError.unavailable(
                path,
                "\(path): the database file is damaged or unreadable (\(error.message ?? "\(error.resultCode)")); it was left as it was"
            )
        }
    }
}
