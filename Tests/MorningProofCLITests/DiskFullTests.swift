import Foundation
import MorningProofTestSupport
import Testing

/// A file system of 4 MB (a tmpfs this test mounts; it needs root, as CI has), filled up, under
/// `backup`, `restore` and any command: each says the disk is full, exits 74, and leaves nothing
/// half-written.
@Suite(.enabled(if: SmallDisk.canMount, "needs root to mount a 4 MB tmpfs"))
struct DiskFullTests {
    static let now = "2026-03-09T12:00:00Z"

    /// `morningproof ARGS --db DATABASE --now NOW`.
    @discardableResult
    func runAlone(_ arguments: [String], database: String, now: String) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try BuiltBinary.run(
            "morningproof", arguments + ["--db", database, "--now", now], environment: ["NO_COLOR": "1"])
    }

    @Test func aBackupToAFullDiskSaysSoAndLeavesNothing() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["habit", "add", "Read"], now: Self.now)
        let disk = try SmallDisk()
        defer { disk.unmount() }
        try disk.fill(leaving: 48 * 1024)
        let target = disk.path + "/copy.sqlite"
        let result = try cli.run(["backup", target], now: Self.now)
        #expect(result.status == 74)
        #expect(result.stderr == "morningproof: no space left on device writing \(target)\n")
        #expect(disk.files() == ["filler"])
    }

    @Test func aRestoreOntoAFullDiskLeavesTheDatabaseAsItWas() throws {
        // The backup to restore: more entries than the disk has room for.
        let source = try CLI()
        defer { source.remove() }
        let imported = try source.run(
            ["import", "loop", try LoopCSV.write(habits: 8, days: 400, in: source.directory), "--apply"], now: Self.now)
        #expect(imported.status == 0)
        let copy = source.directory.path + "/copy.sqlite"
        #expect(try source.run(["backup", copy], now: Self.now).status == 0)

        let disk = try SmallDisk()
        defer { disk.unmount() }
        let live = disk.path + "/live.sqlite"
        try runAlone(["habit", "add", "Stay"], database: live, now: Self.now)
        // Room for the copy of the live database that restore keeps first (it grows with each
        // migration: 282 KB at v16), and 128 KB more, far less than the backup to restore.
        let liveSize = try FileManager.default.attributesOfItem(atPath: live)[.size] as? Int ?? 0
        try disk.fill(leaving: liveSize + 128 * 1024)
        let result = try runAlone(["restore", copy], database: live, now: Self.now)
        #expect(result.status == 74)
        #expect(
            result.stderr == "morningproof: no space left on device writing \(live); the database was left as it was\n")
        #expect(!result.stderr.contains("not an error") && !result.stderr.contains("no more rows"))
        // No kept copy of a database that did not change, and the database holds what it held.
        #expect(disk.files() == ["backups", "filler", "live.sqlite"])
        #expect(disk.files(in: "backups") == [])
        disk.empty()
        let list = try runAlone(["habit", "list"], database: live, now: Self.now)
        #expect(list.status == 0 && list.stdout.contains("Stay") && !list.stdout.contains("Habit 1"))
    }

    @Test func anyCommandOnAFullDiskSaysSoAndLeavesNoSideFiles() throws {
        let disk = try SmallDisk()
        defer { disk.unmount() }
        let live = disk.path + "/live.sqlite"
        try runAlone(["habit", "add", "Read"], database: live, now: Self.now)
        try disk.fill(leaving: 0)
        let result = try runAlone(["done", "Read"], database: live, now: Self.now)
        #expect(result.status == 74)
        #expect(result.stderr == "morningproof: no space left on device writing \(live); it was left as it was\n")
        #expect(disk.files() == ["filler", "live.sqlite"])
        disk.empty()
        #expect(try runAlone(["done", "Read"], database: live, now: Self.now).status == 0)
    }
}

/// A tmpfs of 4 MB mounted on a new temporary folder. Creating a database writes every migration
/// to the WAL before the checkpoint: 1 MB stopped being enough at v18 (the WAL reached 774 KB).
struct SmallDisk {
    let path: String

    /// Whether this process may mount one (root, and a kernel that lets it).
    static let canMount: Bool = {
        guard let disk = try? SmallDisk() else { return false }
        disk.unmount()
        return true
    }()

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("morningproof-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.command("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", path]) == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    /// Fills the disk with a file `filler` until `bytes` stay free.
    func fill(leaving bytes: Int) throws {
        let handle = try FileHandle(
            forWritingTo: URL(fileURLWithPath: path + "/filler", isDirectory: false).creatingFile())
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while freeBytes() > bytes {
            do { try handle.write(contentsOf: chunk.prefix(max(1, min(4096, freeBytes() - bytes)))) } catch { break }
        }
    }

    /// Removes the filler.
    func empty() { try? FileManager.default.removeItem(atPath: path + "/filler") }

    func freeBytes() -> Int {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return 0 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    /// The names on the disk (or in its folder `folder`), sorted.
    func files(in folder: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + folder)) ?? []).sorted()
    }

    func unmount() {
        _ = Self.command("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    @discardableResult
    static func command(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

extension URL {
    /// The file, created empty.
    fileprivate func creatingFile() -> URL {
        FileManager.default.createFile(atPath: path, contents: nil)
        return self
    }
}
