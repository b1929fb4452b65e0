import Foundation
import GRDB
import MorningProofStoreContract

/// Opening a database this process may read but not write (the file or its folder is read-only:
/// a backup on a read-only mount, a file shared for reading). SQLite reads a WAL file only through
/// its `-shm` side file, which a read-only folder cannot hold; a file with nothing in its `-wal`
/// is read as immutable instead. Reads answer as usual; a write fails as a read-only database.
extension AppDatabase {
    /// Whether this process cannot write `path` or create its side files in its folder.
    static func cannotWrite(_ path: String) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return access(path, W_OK) != 0 || access(folder, W_OK) != 0
    }

    /// Opens `path` for reading only, checked as `open` checks it. A file that would need a
    /// migration cannot be upgraded here and is refused.
    static func openReadOnly(path: String) throws -> AppDatabase {
        var configuration = configuration
        configuration.readonly = true
        let (queue, schema) = try DatabaseProbe.refusingDamage(path: path) {
            let queue = try DatabaseQueue(path: readOnlyName(path), configuration: configuration)
            return (queue, try queue.read { try DatabaseProbe.schema($0, path: path) })
        }
        try DatabaseProbe.refuseNewer(schema, knownMigrations: migrator.migrations, path: path)
        guard schema.applied.isSuperset(of: migrator.migrations) else {
            throw StoreError.unavailable(
                path, "\(path) is read-only and needs an upgrade that this MorningProof cannot write; it was left as it was")
        }
        return AppDatabase(writer: queue, openedAs: path)
    }

    /// The name SQLite opens: the path itself while its `-wal` holds pages (its `-shm` is then
    /// there too), else an immutable URI, which needs no side file.
    private static func readOnlyName(_ path: String) -> String {
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        guard wal == 0 else { return path }
        let escaped = path.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }
}
