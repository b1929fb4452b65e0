import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The MorningProof database: one SQLite file behind one `Sendable` value.
/// Migrations are registered here, named, and never edited once landed.
///
/// A command that only reads never writes, with one exception: a read that finds a habit's
/// derived state (`HabitStateCache.swift`) missing or unsound (after an upgrade, or when the system's
/// zone data changed) answers from the whole history, then has that state rebuilt in a write
/// transaction of its own, so that the next read is fast again. What it answered never depends on
/// that write; when the write fails (a read-only file, a full disk), `stateRebuildFailed` hears
/// of it (the CLI prints a warning, the server logs it) and the next read tries again.
public struct AppDatabase: Sendable {
    let writer: any DatabaseWriter
    /// True for a server's pool (`openShared`): its calls suspend the caller while GRDB works on its
    /// own threads. A command's single connection (`open`, `inMemory`) runs each call on the
    /// caller's thread instead: nothing else waits for that thread, and a process that makes a
    /// few quick reads saves a thread hop on each (measured: `status` 2 ms faster).
    var suspends = false
    /// The file's path when SQLite opened it by another name (a read-only URI, `ReadOnlyOpen`).
    var openedAs: String? = nil
    /// The database file, as messages name it.
    var path: String { openedAs ?? writer.path }
    /// Told when rebuilding a derived state that a read found unsound fails; nothing by default.
    public var stateRebuildFailed: @Sendable (StoreError) -> Void = { _ in }
    /// The account whose habits, entries, settings and gate this value reads and writes: the owner
    /// (the CLI's data) unless `scoped(to:)` says otherwise. Another account's rows are not found.
    public private(set) var accountID: Int64 = AccountProfile.ownerID

    /// The same database, seen as the account `id`.
    public func scoped(to id: Int64) -> AppDatabase {
        var scoped = self
        scoped.accountID = id
        return scoped
    }

    /// Opens (and creates or migrates) the database at `path`. A file that is not a MorningProof
    /// database, a corrupt one, or one from a newer MorningProof is refused and left as it was.
    /// One connection, one read of the schema, and no write when nothing needs migrating: so a
    /// command that only reads never writes (GRDB's pool would create a table at every open).
    public static func open(path: String) throws -> AppDatabase {
        let exists = try DatabaseProbe.hasContent(path: path)
        if !exists {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError.unavailable(path, "cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
        do {
            return try openChecked(path: path)
        } catch let error as StoreError where DiskSpace.isFull(at: path) {
            // A failed open on a full disk leaves a log and a shared-memory file that it never set up.
            DiskSpace.removeUnusedSideFiles(of: path)
            throw error
        } catch is StoreError where exists && cannotWrite(path) {
            // A read-only file or folder: read it as it is (see `ReadOnlyOpen`).
            return try openReadOnly(path: path)
        }
    }

    private static func openChecked(path: String) throws -> AppDatabase {
        try translatingErrors(path: path) {
            let (queue, schema) = try allowingRaces {
                try DatabaseProbe.refusingDamage(path: path) {
                    let queue = try DatabaseQueue(path: path, configuration: configuration)
                    return (queue, try queue.read { try DatabaseProbe.schema($0, path: path) })
                }
            }
            try DatabaseProbe.refuseNewer(schema, knownMigrations: migrator.migrations, path: path)
            if !schema.isWAL { try allowingRaces { try setUpWAL(queue) } }
            let database = AppDatabase(writer: queue)
            if !schema.applied.isSuperset(of: migrator.migrations) { try database.migrateAllowingRaces() }
            return database
        }
    }

    /// Opens the database for a process that serves many requests at once (the server): checked,
    /// created or migrated as `open` does, then served by a pool whose reads run side by side on up
    /// to `readers` connections while writes go one at a time (WAL). A one-shot command keeps `open`:
    /// the pool sets itself up with a write at every start. It removes the rows that uploads cut
    /// short by a killed server had staged (`MetricUploadStaging`).
    public static func openShared(path: String, readers: Int) throws -> AppDatabase {
        _ = try open(path: path)
        var configuration = configuration
        configuration.maximumReaderCount = max(1, readers)
        // Checkpoints run off the write path (`WALCheckpointer`), not on the writer after a commit.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        return try translatingErrors(path: path) {
            let pool = try DatabasePool(path: path, configuration: configuration)
            // No upload is being stored yet: staged rows are what a killed server left (issue 38).
            try pool.write { db in while try MetricUploadStaging.remove(nil, limit: 5_000, db) {} }
            WALCheckpointer.start(for: pool)
            return AppDatabase(writer: pool, suspends: true)
        }
    }

    /// A private database in memory, for tests.
    public static func inMemory() throws -> AppDatabase {
        let database = AppDatabase(writer: try DatabaseQueue(configuration: configuration))
        try database.migrateAllowingRaces()
        return database
    }

    static var configuration: Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.foreignKeysEnabled = true
        config.prepareDatabase { db in
            // Many applications choose NORMAL in WAL mode (sqlite.org/pragma.html#pragma_synchronous):
            // a commit is durable at the next checkpoint. It only sets a flag of the connection.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return config
    }

    /// Switches the file to WAL mode, once: the mode is stored in the file, so later opens only
    /// read it. WAL lets `watch`, cron's `check` and the CLI read while one of them writes.
    private static func setUpWAL(_ queue: DatabaseQueue) throws {
        let mode = try queue.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") }
        guard mode == "wal" else {
            throw StoreError.unavailable(
                queue.path, "\(queue.path): cannot switch the database to WAL mode (it stays \(mode ?? "unknown"))")
        }
    }

    /// Runs `body` again while SQLite answers "busy" at once (it does so, without waiting, to a
    /// process that would deadlock with another: many processes creating one file and switching
    /// it to WAL at the same moment), after a short random wait, up to 20 times.
    private static func allowingRaces<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
            {
                attempt += 1
                if attempt >= 20 { throw error }
                usleep(UInt32.random(in: 5_000...20_000) * UInt32(min(attempt, 10)))
            }
        }
    }

    /// Two processes may open a new file at once and race to the same migration; the loser
    /// finds it applied on the next try.
    /// SQLite answers "busy" at once, without waiting, to a process that would deadlock with
    /// another, so the loser waits a little (longer each time, with some randomness so that many
    /// processes spread out) and tries again: twenty processes creating one file all land.
    private func migrateAllowingRaces() throws {
        var attempt = 0
        while true {
            do {
                try Self.migrator.migrate(writer)
                return
            } catch {
                attempt += 1
                if (try? writer.read({ try Self.migrator.hasCompletedMigrations($0) })) == true { return }
                if attempt >= 20 { throw error }
                usleep(UInt32.random(in: 5_000...20_000) * UInt32(min(attempt, 10)))
            }
        }
    }

    /// Runs `body` in a write transaction, which ends by bringing the derived state of the habits it
    /// touched up to date (`refreshHabitStates`); GRDB errors become store errors.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.translatingErrors(path: path) {
            try writer.write { db in
                let result = try body(db)
                try Self.refreshHabitStates(db)
                return result
            }
        }
    }

    /// Runs `body` on a consistent snapshot.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.translatingErrors(path: path) { try writer.read(body) }
    }

    static func translatingErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                throw StoreError(
                    .busy, value: path, "\(path): the database stayed busy (another morningproof is writing); try again"
                )
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                throw StoreError.unavailable(
                    path, "\(path): the database file is damaged (\(error.message ?? "corrupt"))")
            case .SQLITE_CONSTRAINT where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY:
                throw StoreError.removedMeanwhile(path)
            case .SQLITE_FULL:
                throw StoreError.noSpace(path)
            case .SQLITE_IOERR where DiskSpace.isFull(at: path):
                throw StoreError.noSpace(path)
            case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_PERM:
                throw StoreError.unavailable(path, "\(path): \(error.message ?? "cannot open the database")")
            default:
                throw StoreError.unavailable(path, "\(path): database error: \(error.message ?? "\(error)")")
            }
        }
    }
}
