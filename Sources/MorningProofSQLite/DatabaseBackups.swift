import Foundation
import MorningProofCore
import MorningProofStoreContract

/// What `backup` did.
public struct BackupOutcome: Sendable, Equatable {
    /// The copy written.
    public var path: String
    public var bytes: Int64
    /// Older copies removed by `keep`, oldest first.
    public var removed: [String]
}

/// What `restore` did.
public struct RestoreOutcome: Sendable, Equatable {
    /// Where the database that was in place is kept; nil when there was none.
    public var keptAt: String?
    /// Habits in the restored database.
    public var habits: Int
}

/// The backups of one SQLite database file (`backup`, `restore`): a consistent copy while anything
/// else keeps writing, copies kept in the data folder's `backups/` and rotated, and a restore that
/// keeps the replaced database aside. The copying itself is `AppDatabase`'s (`AppDatabase+Backup`).
public struct DatabaseBackups: Sendable {
    /// The live database file.
    public let databasePath: String

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// `backups/` beside the database file: where copies go when no file is named.
    public var folder: String {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("backups").path
    }

    /// Copies `database` to `file`, or, without one, to a new `backups/morningproof-<UTC time>.sqlite`;
    /// then, with `keep`, removes all but the newest `keep` copies there. A named file that already
    /// exists is refused (a usage error): a backup never overwrites.
    public func backup(_ database: AppDatabase, to file: String?, keep: Int?, now: Date) throws -> BackupOutcome {
        let path: String
        if let file {
            guard !FileManager.default.fileExists(atPath: file) else {
                throw MorningProofError.usage("\(file) already exists; name a new file (a backup never overwrites one)")
            }
            path = file
        } else {
            try createFolder(folder)
            path = folder + "/" + Self.freeName(at: now, taken: Set(contents(of: folder)))
        }
        let bytes = try database.backup(to: path)
        var removed: [String] = []
        if let keep {
            for name in Self.rotation(contents(of: folder), keep: keep) {
                let old = folder + "/" + name
                do {
                    try FileManager.default.removeItem(atPath: old)
                    removed.append(old)
                } catch {
                    throw MorningProofError.ioError(
                        "\(old): cannot remove an old backup (\(error.localizedDescription))")
                }
            }
        }
        return BackupOutcome(path: path, bytes: bytes, removed: removed)
    }

    /// Puts the database in `file` in place of the live one, which is kept as
    /// `backups/before-restore-<UTC time>.sqlite`. A file that is not a whole MorningProof database of
    /// this version or older is refused and nothing changes.
    public func restore(from file: String, now: Date) async throws -> RestoreOutcome {
        let kept = folder + "/" + Self.freeName(at: now, taken: Set(contents(of: folder)), prefix: "before-restore-")
        let existed = FileManager.default.fileExists(atPath: databasePath)
        let restored = try AppDatabase.restore(from: file, into: databasePath, keepingOldAt: kept)
        return await RestoreOutcome(
            keptAt: existed && FileManager.default.fileExists(atPath: kept) ? kept : nil,
            habits: try restored.habits(includeArchived: true).count)
    }

    /// `morningproof-2026-03-09T071500Z.sqlite` (a second copy within the same second gets `-2`, ...):
    /// names that sort in the order they were made.
    static func freeName(at now: Date, taken: Set<String>, prefix: String = "morningproof-") -> String {
        let stamp = ISOInstant.format(now, in: TimeZone(identifier: "UTC")!).replacingOccurrences(of: ":", with: "")
        var name = "\(prefix)\(stamp).sqlite"
        var number = 2
        while taken.contains(name) {
            name = "\(prefix)\(stamp)-\(number).sqlite"
            number += 1
        }
        return name
    }

    /// The copies `keep` removes: of the files named like `backup` names them, all but the newest `keep`.
    /// Anything else in the folder (a restore's kept database, your own files) is never touched.
    public static func rotation(_ names: [String], keep: Int) -> [String] {
        // `2026-03-09T071500Z`, then `-N` for a later copy of the same second.
        func key(_ name: String) -> (stamp: String, number: Int)? {
            guard name.hasPrefix("morningproof-"), name.hasSuffix(".sqlite") else { return nil }
            let core = name.dropFirst("morningproof-".count).dropLast(".sqlite".count)
            let stamp = String(core.prefix(18)), rest = core.dropFirst(18)
            guard stamp.count == 18, stamp.hasSuffix("Z"), LocalDay(String(stamp.prefix(10))) != nil else { return nil }
            if rest.isEmpty { return (stamp, 1) }
            guard rest.hasPrefix("-"), let number = Int(rest.dropFirst()) else { return nil }
            return (stamp, number)
        }
        let copies = names.compactMap { name in key(name).map { (name: name, key: $0) } }.sorted { $0.key < $1.key }
        return copies.dropLast(max(0, keep)).map(\.name)
    }

    private func contents(of folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    private func createFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw MorningProofError.ioError("cannot create \(path): \(error.localizedDescription)")
        }
    }
}
