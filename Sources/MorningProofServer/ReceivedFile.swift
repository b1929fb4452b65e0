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
/// `with` removes both in every outcome: read, refused, failed, or the client gone mid-body.
final class ReceivedFile: @unchecked Sendable {
    /// The file's path, for the reader.
    let path: String
    private let folder: String
    // Written from the one task that reads the body; closed before it is read.
    private var descriptor: Int32

    private init(in parent: String) throws {
        var template = Array((parent.hasSuffix("/") ? parent : parent + "/").utf8CString.dropLast())
        template += Array("morningproof-upload-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ReceivedFile.failure("cannot make a folder for the upload in \(parent)")
        }
        folder = String(cString: made)
        path = folder + "/body"
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            rmdir(folder)
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
    }

    /// The server's disk failed it: 503, not the client's fault.
    private static func failure(_ message: String) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "storage_unavailable", message: "\(message); try again later",
            headers: [.retryAfter: "30"])
    }
}
