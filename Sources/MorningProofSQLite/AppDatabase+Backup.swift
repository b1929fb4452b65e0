import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
    /// Copies the database into a new file at `path` with SQLite's online backup API (GRDB's
    /// `backup(to:)`): one consistent snapshot, taken while `watch` or anyone else keeps writing. The
    /// copy is written to `PATH.partial`, checked with `PRAGMA integrity_check`, then renamed, so a
    /// file at `path` is always whole; a copy that fails (a full disk) leaves nothing behind. Returns
    /// the copy's size in bytes.
    @discardableResult
    public func backup(to path: String) throws -> Int64 {
        let partial = path + ".partial"
        func removePartial() {
            for file in [partial, partial + "-journal", partial + "-wal", partial + "-shm"] {
                try? FileManager.default.removeItem(atPath: file)
            }
        }
        removePartial()
        do {
            try Self.translatingErrors(path: path) {
                let copy = try DatabaseQueue(path: partial)
                try writer.backup(to: copy)
                try Self.checkIntegrity(copy, path: path, failure: .unavailable)
                try copy.close()
            }
            guard rename(partial, path) == 0 else {
                throw StoreError.unavailable(
                    path, "\(path): cannot write the backup (\(String(cString: strerror(errno))))")
            }
        } catch {
            removePartial()
            if let error = error as? StoreError { throw error }
            throw StoreError.unavailable(path, "\(path): cannot write the backup (\(error))")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Puts the MorningProof database in `source` in place of the one at `path`, after copying the
    /// one there to `keptAt` (when there is one). A file that is not a whole MorningProof database, or
    /// one written by a newer MorningProof, is refused (a data error) and nothing changes. The copies
    /// go through the backup API, so a `watch` running meanwhile waits for them and then sees the
    /// restored data. Returns the restored database, migrated to this version's schema.
    public static func restore(from source: String, into path: String, keepingOldAt keptAt: String) throws
        -> AppDatabase
    {
        try leavingNoSidecars(of: source) { try checkRestorable(source) }
        let existed = ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0) > 0
        let live = try open(path: path)
        if existed {
            let folder = URL(fileURLWithPath: keptAt).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw StoreError.unavailable(folder.path, "cannot create \(folder.path): \(error.localizedDescription)")
            }
            do {
                try live.backup(to: keptAt)
            } catch let error as StoreError {
                throw error.adding("; nothing was restored")
            }
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            // The source was read whole by the check above: what fails here is writing the database.
            try translatingErrors(path: path) {
                try leavingNoSidecars(of: source) {
                    let incoming = try DatabaseQueue(path: source, configuration: configuration)
                    try incoming.backup(to: live.writer)
                    try incoming.close()
                }
            }
        } catch let error as StoreError {
            // SQLite rolled the copy back: the database is as it was, and its copy kept aside is not needed.
            if existed { try? FileManager.default.removeItem(atPath: keptAt) }
            throw error.adding("; the database was left as it was")
        }
        return try open(path: path)
    }

    /// Runs `body`, which reads the database at `path` read-only, then removes the `-wal` and `-shm`
    /// files SQLite made beside it for that read (a read-only connection cannot remove them when it
    /// closes), so a backup that was restored is still one file. Files that were there before stay.
    static func leavingNoSidecars<T>(of path: String, _ body: () throws -> T) rethrows -> T {
        let sidecars = [path + "-wal", path + "-shm"].filter { !FileManager.default.fileExists(atPath: $0) }
        defer { for file in sidecars { try? FileManager.default.removeItem(atPath: file) } }
        return try body()
    }

    /// Refuses anything but a whole MorningProof database this version can read.
    static func checkRestorable(_ source: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw StoreError(.missingFile, value: source, "\(source): no such file")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: source)[.size] as? NSNumber)?.intValue ?? 0
        guard !isDirectory.boolValue, size > 0 else {
            throw StoreError(
                .badFile, value: source,
                "\(source) is not a MorningProof database (\(isDirectory.boolValue ? "a folder" : "an empty file"))")
        }
        do {
            try DatabaseProbe.check(path: source, knownMigrations: migrator.migrations)
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: source, configuration: configuration)
            try checkIntegrity(queue, path: source, failure: .badFile)
            try queue.close()
        } catch let error as StoreError {
            // The probe speaks of the live database (it is unavailable); here the file is the input.
            throw StoreError(
                .badFile, value: source, error.message.replacingOccurrences(of: "; it was left as it was", with: ""))
        } catch let error as DatabaseError {
            throw StoreError(
                .badFile, value: source, "\(source): the database file is damaged (\(error.message ?? "\(error)"))")
        }
    }

    private static func checkIntegrity(
        _ reader: any DatabaseReader, path: String, failure: StoreError.Code
    ) throws {
        let result = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard result == ["ok"] else {
            throw StoreError(
                failure, value: path,
                "\(path): the database file is damaged (integrity check: \(result.prefix(3).joined(separator: "; ")))")
        }
    }
}
