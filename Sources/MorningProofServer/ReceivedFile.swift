import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// A request body written to disk as it arrives, never held whole: a file of mode 0600 in a folder
/// of its own (0700, made by `mkdtemp`), so that no other user reads a person's health data.
/// `with` removes both in every outcome: read, refused, failed, or the client gone mid-body. A
/// process killed (`kill -9`, a power cut) cannot: its folders are found by `removeStale` when a
/// server starts, told from a live upload's (another server's sharing the folder, or this one's)
/// by the lock each live upload holds on its folder.
final class ReceivedFile: @unchecked Sendable {
    /// The file's path, for the reader.
    let path: String
    private let folder: String
    // Written from the one task that reads the body; closed before it is read.
    private var descriptor: Int32
    /// The folder, open and locked (`flock`) until it is removed: a live upload.
    private let folderLock: Int32

    /// The start of each upload folder's name; `mkdtemp` adds six letters or digits.
    static let folderPrefix = "morningproof-upload-"

    private init(in parent: String) throws {
        var template = Array((parent.hasSuffix("/") ? parent : parent + "/").utf8CString.dropLast())
        template += Array("\(Self.folderPrefix)XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ReceivedFile.failure("cannot make a folder for the upload in \(parent)")
        }
        folder = String(cString: made)
        path = folder + "/body"
        folderLock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderLock >= 0, flock(folderLock, LOCK_EX | LOCK_NB) == 0 else {
            if folderLock >= 0 { close(folderLock) }
            rmdir(folder)
            throw ReceivedFile.failure("cannot lock the upload's folder in \(parent)")
        }
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            rmdir(folder)
            close(folderLock)
            throw ReceivedFile.failure("cannot make the upload's file in \(parent)")
        }
    }

    /// Runs `body` with a new file in a new folder under `parent`; both are gone when it returns or throws.
    static func with<T: Sendable>(in parent: String, _ body: (ReceivedFile) async throws -> T) async throws -> T {
        let file = try ReceivedFile(in: parent)
        defer { file.remove() }
        return try await body(file)
    }

    /// Appends `bytes` to the file.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = systemWrite(descriptor, base, left)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure("cannot write the upload to disk (errno \(errno))")
            }
            left -= written
            base += written
        }
    }

    func write(_ buffer: ByteBuffer) throws {
        try buffer.withUnsafeReadableBytes { try write($0) }
    }

    /// Closes the file, so that it can be read whole.
    func finish() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func remove() {
        finish()
        unlink(path)
        rmdir(folder)
        close(folderLock)
    }

    /// Removes the upload folders under `parent` that no live upload holds: those a killed server
    /// left, each with the body it was reading. Only folders named as `ReceivedFile` names them,
    /// owned by this user, holding nothing but a `body` file (and `body.batches`, what was read of it),
    /// are touched; the names removed are returned.
    @discardableResult
    static func removeStale(in parent: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        var removed: [String] = []
        for name in names where isUploadFolderName(name) {
            let folder = (parent.hasSuffix("/") ? parent : parent + "/") + name
            var status = stat()
            guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
                continue
            }
            let lock = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            // Held: an upload in progress, here or in another server sharing the folder.
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }
            unlinkat(lock, "body", 0)
            // The batches of a CSV or JSON Lines upload read but not yet stored (`MetricSpool`).
            unlinkat(lock, "body.batches", 0)
            if rmdir(folder) == 0 { removed.append(name) }
        }
        return removed
    }

    /// True for `morningproof-upload-` and six letters or digits, as `mkdtemp` fills them in.
    static func isUploadFolderName(_ name: String) -> Bool {
        guard name.hasPrefix(folderPrefix) else { return false }
        let suffix = name.utf8.dropFirst(folderPrefix.utf8.count)
        return suffix.count == 6
            && suffix.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
            }
    }

    /// The server's disk failed it: 503, not the client's fault.
    private static func failure(_ message: String) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "storage_unavailable", message: "\(message); try again later",
            headers: [.retryAfter: "30"])
    }
}
