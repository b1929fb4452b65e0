import Foundation
import GRDB

/// Checkpoints a server's WAL from a connection of its own (issue 38), so that no write waits for a
/// checkpoint: the pool's connections have `wal_autocheckpoint` off, where SQLite would run one on
/// the writer's connection after the commit that takes the WAL past 1,000 pages, and the next
/// write (another account's) would wait for it. Every half second a PASSIVE checkpoint copies to the
/// database what no reader still needs, without waiting for anyone; a WAL copied whole and larger
/// than `truncateAbove` is then truncated (TRUNCATE, without waiting: tried again on a later turn
/// when a write or a read is under way), so that the file does not stay as large as the largest
/// upload made it. The loop ends with the pool.
final class WALCheckpointer: @unchecked Sendable {
    /// Between two checkpoints.
    static let interval: TimeInterval = 0.5
    /// A WAL copied whole and larger than this is truncated.
    static let truncateAbove: Int64 = 4 << 20

    private weak var pool: DatabasePool?
    private let path: String

    private init(pool: DatabasePool) {
        self.pool = pool
        self.path = pool.path
    }

    /// Starts checkpointing `pool`'s WAL on a thread of its own until the pool is gone.
    static func start(for pool: DatabasePool) {
        let checkpointer = WALCheckpointer(pool: pool)
        let thread = Thread { checkpointer.run() }
        thread.name = "morningproof WAL checkpoints"
        thread.start()
    }

    private func run() {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        guard let connection = try? DatabaseQueue(path: path, configuration: configuration) else {
            // No connection of its own: the writer checkpoints after its commits again, as SQLite does by default.
            try? pool?.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 1000") }
            return
        }
        while pool != nil {
            Thread.sleep(forTimeInterval: Self.interval)
            try? connection.writeWithoutTransaction { db in try checkpoint(db) }
        }
    }

    private func checkpoint(_ db: Database) throws {
        let (log, copied) = try db.checkpoint(.passive)
        guard log > 0, copied == log, walSize() > Self.truncateAbove else { return }
        _ = try db.checkpoint(.truncate)
    }

    private func walSize() -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
