import Foundation
import MorningProofCore

/// What `stat` says about a file, and a fingerprint of its first bytes.
public struct FileIdentity: Equatable, Sendable {
    public var size: Int64
    public var mtime: Double
    public var inode: UInt64
    public var isDirectory: Bool

    /// Bytes the head fingerprint covers at most.
    public static let headLength = 4096

    /// The identity of `path`; throws `MetricFileError.noSuchFile` when it does not exist, naming the
    /// file as `shownAs` (default: its path).
    public static func of(_ path: String, shownAs name: String? = nil) throws -> FileIdentity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let number = errno
            let name = name ?? path
            if number == ENOENT || number == ENOTDIR {
                throw MetricFileError(.noSuchFile, path: name, "\(name): no such file")
            }
            throw MetricFileError.cannotOpen(name, errno: number, "\(name): \(String(cString: strerror(number)))")
        }
        let seconds = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return FileIdentity(
            size: Int64(info.st_size), mtime: seconds, inode: UInt64(info.st_ino),
            isDirectory: (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// True when nothing about the file changed since `state` was recorded: it need not be read.
    public func isUnchanged(since state: WatchedFileState) -> Bool {
        size == state.size && mtime == state.mtime && inode == state.inode
    }

    /// FNV-1a of the first `length` bytes of the file, as hex; nil when it has fewer bytes.
    public static func fingerprint(_ path: String, length: Int) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: length) ?? Data(), data.count == length else { return nil }
        return String(FNV1a.hash(data), radix: 16)
    }
}
