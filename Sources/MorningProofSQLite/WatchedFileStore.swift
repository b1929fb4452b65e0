import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: WatchedFileStore {
    /// The paths `source add` watches (files or folders), in the order added.
    public func metricSources() async throws -> [String] {
        try await asyncRead { db in try String.fetchAll(db, sql: "SELECT path FROM metricSource ORDER BY addedAt, path")
        }
    }

    /// Watches a path; false when it was already watched.
    @discardableResult
    public func addMetricSource(_ path: String, at instant: Date = Date()) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(
                sql: "INSERT INTO metricSource (path, addedAt) VALUES (?, ?) ON CONFLICT DO NOTHING",
                arguments: [path, instant])
            return db.changesCount > 0
        }
    }

    /// Stops watching a path (and forgets what was read of the files under it); the totals
    /// already read stay. False when it was not watched.
    @discardableResult
    public func removeMetricSource(_ path: String) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(sql: "DELETE FROM metricSource WHERE path = ?", arguments: [path])
            let removed = db.changesCount > 0
            let prefix = path.hasSuffix("/") ? path : path + "/"
            try db.execute(
                sql: "DELETE FROM watchedFile WHERE path = ? OR substr(path, 1, ?) = ?",
                arguments: [path, prefix.utf8.count, prefix])
            return removed
        }
    }

    /// What was last read of a file, or nil when it never was.
    public func watchedFile(_ path: String) async throws -> WatchedFileState? {
        try await asyncRead { db in
            try Row.fetchOne(db, sql: "SELECT * FROM watchedFile WHERE path = ?", arguments: [path]).map(Self.fileState)
        }
    }

    /// Every file read so far, by path.
    public func watchedFiles() async throws -> [String: WatchedFileState] {
        try await asyncRead { db in
            try Row.fetchAll(db, sql: "SELECT * FROM watchedFile").reduce(into: [:]) {
                let state = Self.fileState($1)
                $0[state.path] = state
            }
        }
    }

    /// Records what was read of a file (without any samples).
    public func saveWatchedFile(_ state: WatchedFileState) async throws {
        try await asyncWrite { db in try Self.saveWatchedFile(state, db) }
    }

    static func saveWatchedFile(_ state: WatchedFileState, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO watchedFile (path, size, mtime, inode, headFingerprint, resumeOffset, resumeLine,
                    complete, format, readAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime,
                    inode = excluded.inode, headFingerprint = excluded.headFingerprint,
                    resumeOffset = excluded.resumeOffset, resumeLine = excluded.resumeLine,
                    complete = excluded.complete, format = excluded.format, readAt = excluded.readAt
                """,
            arguments: [
                state.path, state.size, state.mtime, Int64(bitPattern: state.inode), state.headFingerprint,
                state.resumeOffset, state.resumeLine, state.complete, state.format, state.readAt,
            ])
    }

    private static func fileState(_ row: Row) -> WatchedFileState {
        WatchedFileState(
            path: row["path"], size: row["size"], mtime: row["mtime"],
            inode: UInt64(bitPattern: row["inode"] as Int64), headFingerprint: row["headFingerprint"],
            resumeOffset: row["resumeOffset"], resumeLine: row["resumeLine"], complete: row["complete"],
            format: row["format"], readAt: row["readAt"])
    }
}
