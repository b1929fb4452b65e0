import Foundation
import NIOCore

/// The one file part of a `multipart/form-data` body, cut out while the body streams: the file's
/// bytes go to `write` as they arrive and nothing is held but a part's headers (at most 8 KiB) and
/// the few bytes at a chunk's end that may begin a boundary. The parts are bounded as
/// `MultipartPhoto`'s are (16 parts, 32 KiB of headers); a second file part is a 400, not dropped
/// unread while the client believes it was sent.
struct MultipartFileStream {
    private enum State {
        /// Looking for the next boundary: in the preamble, or through a part that is not the file.
        case seeking
        /// Just after a boundary: "--" closes the form, else a line break opens a part.
        case afterBoundary
        case headers
        /// In the file part, writing.
        case file
        /// The form closed (its last boundary): the bytes after it are not looked at.
        case closed
    }

    /// CRLF, "--" and the boundary: what ends a part.
    private let delimiter: [UInt8]
    private var state = State.seeking
    private var pending: [UInt8]
    private var parts = 0
    private var headerBytes = 0
    /// The file part ended at its boundary.
    private var hasFile = false

    init(boundary: [UInt8]) {
        delimiter = Array("\r\n--".utf8) + boundary
        // A body may open with its first boundary and no line break before it.
        pending = Array("\r\n".utf8)
    }

    /// Takes the next bytes of the body, passing the file's bytes among them to `write`.
    mutating func feed(_ chunk: ByteBuffer, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        if state == .closed { return }
        chunk.withUnsafeReadableBytes { pending.append(contentsOf: $0) }
        while try step(write) {}
    }

    /// Checks that the body held a whole file part: 400 when it had none or ended inside it.
    func finish() throws {
        if hasFile { return }
        switch state {
        case .closed: throw Self.noFile
        case .seeking where parts == 0: throw Self.noFile
        default: throw MultipartPhoto.malformed
        }
    }

    /// One step of the parse; false when it needs more bytes.
    private mutating func step(_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        switch state {
        case .seeking, .file:
            let writing = state == .file
            guard let found = find(delimiter, from: 0) else {
                // Keep what may be the start of a boundary split across chunks.
                let keep = min(pending.count, delimiter.count - 1)
                if writing {
                    try pending.withUnsafeBytes {
                        try write(UnsafeRawBufferPointer(rebasing: $0[..<(pending.count - keep)]))
                    }
                }
                pending.removeFirst(pending.count - keep)
                return false
            }
            if writing {
                try pending.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<found])) }
                hasFile = true
            }
            pending.removeFirst(found + delimiter.count)
            state = .afterBoundary
            return true
        case .afterBoundary:
            if pending.starts(with: Array("--".utf8)) {
                state = .closed
                return false
            }
            // Blanks may follow a boundary (RFC 2046), then the line break.
            let blanks = pending.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
            guard blanks <= 64 else { throw MultipartPhoto.malformed }
            guard pending.count >= blanks + 2 else { return false }
            guard pending[blanks] == UInt8(ascii: "\r"), pending[blanks + 1] == UInt8(ascii: "\n") else {
                throw MultipartPhoto.malformed
            }
            pending.removeFirst(blanks + 2)
            parts += 1
            guard parts <= MultipartPhoto.maxParts else {
                throw APIError.badRequest("the form has more than \(MultipartPhoto.maxParts) parts")
            }
            state = .headers
            return true
        case .headers:
            let end: Int
            if pending.starts(with: Array("\r\n".utf8)) {
                end = 0
            } else if let found = find(Array("\r\n\r\n".utf8), from: 0) {
                end = found + 2
            } else {
                guard pending.count < MultipartPhoto.maxPartHeaderBytes else { throw MultipartPhoto.headersTooLarge }
                return false
            }
            headerBytes += end + 2
            guard end + 2 <= MultipartPhoto.maxPartHeaderBytes, headerBytes <= MultipartPhoto.maxHeaderBytes else {
                throw MultipartPhoto.headersTooLarge
            }
            let headers = String(decoding: pending[..<end], as: UTF8.self)
            // The part's bytes follow; the line break before its delimiter belongs to the delimiter.
            pending.removeFirst(end + 2)
            guard MultipartPhoto.isFile(headers: headers) else {
                state = .seeking
                return true
            }
            guard !hasFile else { throw Self.secondFile }
            state = .file
            return true
        case .closed:
            return false
        }
    }

    /// Where `needle` (a CR first) first occurs in the pending bytes at or after `start`.
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        pending.withUnsafeBytes { MultipartPhoto.find(needle, in: $0, from: start) }
    }

    static let noFile = APIError.badRequest("the form holds no file (a part with a filename)")
    static let secondFile = APIError.badRequest("the form holds more than one file: send one file a request")
}
