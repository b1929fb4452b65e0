import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file system under a database file, asked after a write failed: whether it is full, and the
/// side files that a failed open on a full disk leaves behind.
enum DiskSpace {
    /// Less free room than this is a full disk to SQLite: the shared memory of a write-ahead log alone
    /// takes 32 KiB, and a write of a page needs a few more.
    static let minimumFree: UInt64 = 64 * 1024

    /// Whether the file system holding `path` (its folder, for a file not made yet) has less room
    /// than SQLite needs. SQLite says "disk I/O error" when it cannot grow a log or shared-memory file.
    static func isFull(at path: String) -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var stats = statvfs()
        guard statvfs(FileManager.default.fileExists(atPath: path) ? path : folder, &stats) == 0 else { return false }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < minimumFree
    }

    /// Removes the `-wal` and `-shm` files beside `path` that an open on a full disk left: an empty log
    /// and a shared-memory file SQLite never finished setting up (shorter than its first 32 KiB), and
    /// only while no connection of any process has them open. That is SQLite's own test: whoever can
    /// lock the shared memory's "dead man switch" byte alone is its only user; the lock is held until
    /// both files are gone. Called only after this process's own connection closed.
    static func removeUnusedSideFiles(of path: String) {
        let shm = path + "-shm", wal = path + "-wal"
        func size(_ file: String) -> UInt64? {
            (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.uint64Value
        }
        let walSize = size(wal)
        guard walSize ?? 0 == 0, let shmSize = size(shm), shmSize < 32 * 1024 else { return }
        let descriptor = open(shm, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128  // UNIX_SHM_DMS in SQLite's os_unix.c: (22 + 8) * 4 + 8
        lock.l_len = 1
        guard fcntl(descriptor, F_SETLK, &lock) == 0 else { return }
        unlink(shm)
        if walSize != nil { unlink(wal) }
    }
}
