import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file part of a `multipart/form-data` body (a form's file input), cut out with bounded work
/// while the body streams: the file's bytes go to `write` as they arrive, and nothing is held but a
/// part's headers and the few bytes at a chunk's end that may begin a boundary. At most `maxParts`
/// parts and `maxHeaderBytes` of part headers are looked at: a form of half a million empty parts
/// is refused at its 17th. The photo route and the metrics route both read their forms with it.
struct MultipartForm {
    /// What the form's file is, which decides what is read after it and how the errors word it.
    enum Carrying: Sendable {
        /// A photo: the first file part; the bytes after it are not looked at.
        case photo
        /// A metrics file: the one file part. The parts after it are read, and a second file part is
        /// a 400, not dropped unread while the client believes it was sent.
        case file
        /// Several files, each by its part's name (harsh's `habits` and `log` for an import): every
        /// file part is passed on with its name.
        case files

        /// Blanks taken after a boundary before the form is a 400: any number in a photo's form, 64
        /// in a metrics file's (as each route has always answered).
        var maxPadding: Int? { self == .photo ? nil : 64 }
    }

    private enum State {
        /// Looking for the next boundary: in the preamble, or through a part that is not the file.
        case seeking
        /// Just after a boundary: "--" closes the form, else blanks and a line break open a part.
        case afterBoundary
        /// Blanks after a boundary (RFC 2046's transport padding): only a line break may follow.
        case padding
        case headers
        /// In the file part, writing.
        case file
        /// The form closed (its last boundary), or the photo was read: the bytes after are not looked at.
        case closed
    }

    /// Parts looked at, the file's included: a form holds a few fields beside its file.
    static let maxParts = 16
    /// Header bytes of one part, and of all the parts looked at.
    static let maxPartHeaderBytes = 8 * 1024
    static let maxHeaderBytes = 32 * 1024

    let carrying: Carrying
    /// CRLF, "--" and the boundary: what ends a part.
    private let delimiter: [UInt8]
    private var state = State.seeking
    private var pending: [UInt8]
    private var parts = 0
    private var headerBytes = 0
    /// Blanks after the last boundary.
    private var padding = 0
    /// The file part ended at its boundary.
    private var hasFile = false
    /// The file part being read: its place among the form's file parts, from 0, and its name
    /// (`Content-Disposition`'s `name`).
    private var part = FilePart(index: -1, name: "")

    /// A file part of the form: its place among the file parts (from 0) and its name.
    typealias FilePart = (index: Int, name: String)

    /// The form that a Content-Type announces, with its boundary from the parameters as sent (RFC
    /// 2046: 1 to 70 characters, case-sensitive); 400 when it is missing or not one.
    init(contentType: MediaType, carrying: Carrying) throws {
        guard let boundary = contentType.parameters["boundary"], !boundary.isEmpty else {
            throw APIError.badRequest("multipart/form-data needs a boundary")
        }
        guard boundary.utf8.count <= 70, !boundary.hasSuffix(" "),
            boundary.unicodeScalars.allSatisfy({ Self.boundaryCharacters.contains($0) })
        else {
            throw APIError.badRequest("the multipart boundary is not 1 to 70 letters, digits or '()+_,-./:=? ")
        }
        self.init(boundary: Array(boundary.utf8), carrying: carrying)
    }

    init(boundary: [UInt8], carrying: Carrying) {
        self.carrying = carrying
        delimiter = Array("\r\n--".utf8) + boundary
        // A body may open with its first boundary and no line break before it.
        pending = Array("\r\n".utf8)
    }

    private static let boundaryCharacters = CharacterSet(
        charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ")

    /// The file of a whole body: read as it would stream, in slices, so that what is held beside
    /// the body is the file alone. 400 as `feed` and `finish` say.
    func file(in body: ByteBuffer) throws -> Data {
        var form = self
        var file = Data()
        try body.withUnsafeReadableBytes { bytes in
            var start = 0
            repeat {
                let end = min(bytes.count, start + 64 * 1024)
                try form.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { part in
                    if let base = part.baseAddress {
                        file.append(base.assumingMemoryBound(to: UInt8.self), count: part.count)
                    }
                }
                start = end
            } while start < bytes.count
        }
        try form.finish()
        return file
    }

    /// Takes the next bytes of the body, passing the file's bytes among them to `write`.
    mutating func feed(_ chunk: ByteBuffer, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try chunk.withUnsafeReadableBytes { try feed($0, write: write) }
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer, write: (UnsafeRawBufferPointer) throws -> Void) throws {
        try feedParts(bytes) { _, part in try write(part) }
    }

    /// Takes the next bytes of the body, passing the bytes of each file part to `write` with the
    /// part; a part's first call comes as it opens (`.files`), with no bytes, so that an empty file is seen.
    mutating func feedParts(_ chunk: ByteBuffer, write: (FilePart, UnsafeRawBufferPointer) throws -> Void) throws {
        try chunk.withUnsafeReadableBytes { try feedParts($0, write: write) }
    }

    mutating func feedParts(
        _ bytes: UnsafeRawBufferPointer, write: (FilePart, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if state == .closed { return }
        pending.append(contentsOf: bytes)
        while try step(write) {}
    }

    /// Checks that the body held a whole file part: 400 when it had none or ended inside it.
    func finish() throws {
        if hasFile { return }
        switch state {
        case .closed: throw noFile
        case .seeking where parts == 0: throw noFile
        default: throw Self.malformed
        }
    }

    /// One step of the parse; false when it needs more bytes.
    private mutating func step(_ write: (FilePart, UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        switch state {
        case .seeking, .file:
            let writing = state == .file
            guard let found = find(delimiter) else {
                // Keep what may be the start of a boundary split across chunks.
                let keep = min(pending.count, delimiter.count - 1)
                if writing {
                    try pending.withUnsafeBytes {
                        try write(part, UnsafeRawBufferPointer(rebasing: $0[..<(pending.count - keep)]))
                    }
                }
                pending.removeFirst(pending.count - keep)
                return false
            }
            if writing {
                try pending.withUnsafeBytes { try write(part, UnsafeRawBufferPointer(rebasing: $0[..<found])) }
                hasFile = true
                if carrying == .photo {
                    state = .closed
                    return false
                }
            }
            pending.removeFirst(found + delimiter.count)
            state = .afterBoundary
            return true
        case .afterBoundary:
            if pending.starts(with: Array("--".utf8)) {
                state = .closed
                return false
            }
            if pending.isEmpty || pending == Array("-".utf8) { return false }
            (state, padding) = (.padding, 0)
            return true
        case .padding:
            // Blanks may follow a boundary (RFC 2046), then the line break.
            let blanks = pending.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
            pending.removeFirst(blanks)
            padding += blanks
            if let most = carrying.maxPadding, padding > most { throw Self.malformed }
            guard pending.count >= 2 else { return false }
            guard pending[0] == UInt8(ascii: "\r"), pending[1] == UInt8(ascii: "\n") else { throw Self.malformed }
            pending.removeFirst(2)
            parts += 1
            guard parts <= Self.maxParts else { throw tooManyParts }
            state = .headers
            return true
        case .headers:
            let end: Int
            if pending.starts(with: Array("\r\n".utf8)) {
                end = 0
            } else if let found = find(Array("\r\n\r\n".utf8)) {
                end = found + 2
            } else {
                guard pending.count < Self.maxPartHeaderBytes else { throw Self.headersTooLarge }
                return false
            }
            headerBytes += end + 2
            guard end + 2 <= Self.maxPartHeaderBytes, headerBytes <= Self.maxHeaderBytes else {
                throw Self.headersTooLarge
            }
            let headers = String(decoding: pending[..<end], as: UTF8.self)
            // The part's bytes follow; the line break before its delimiter belongs to the delimiter.
            pending.removeFirst(end + 2)
            guard Self.isFile(headers: headers) else {
                state = .seeking
                return true
            }
            guard !hasFile || carrying == .files else { throw Self.secondFile }
            part = (part.index + 1, Self.name(headers: headers))
            if carrying == .files { try write(part, UnsafeRawBufferPointer(start: nil, count: 0)) }
            state = .file
            return true
        case .closed:
            return false
        }
    }

    /// Whether a part's headers say it is a file: a `filename` or an image type.
    static func isFile(headers: String) -> Bool {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let (name, value) = (pair[0].lowercased(), pair[1].lowercased())
            if name == "content-disposition", value.contains("filename=") || value.contains("filename*=") {
                return true
            }
            if name == "content-type", value.trimmingCharacters(in: .whitespaces).hasPrefix("image/") { return true }
        }
        return false
    }

    /// The `name` parameter of a part's `Content-Disposition` (`form-data; name="log"`), or "".
    static func name(headers: String) -> String {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "content-disposition" else { continue }
            return MediaType(String(pair[1])).parameters["name"] ?? ""
        }
        return ""
    }

    /// Where `needle` (a CR first; a boundary holds none after it) first occurs in the pending
    /// bytes. libc's memchr finds each CR; a CR that is not the needle's start is passed after a
    /// few bytes compared, so the search is linear in the bytes.
    private func find(_ needle: [UInt8]) -> Int? {
        pending.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            var next = 0
            while next + needle.count <= bytes.count {
                guard let found = memchr(base + next, Int32(needle[0]), bytes.count - next - needle.count + 1) else {
                    return nil
                }
                let at = base.distance(to: UnsafeRawPointer(found))
                if bytes[at..<(at + needle.count)].elementsEqual(needle) { return at }
                next = at + 1
            }
            return nil
        }
    }

    private var noFile: APIError {
        switch carrying {
        case .photo: APIError.badRequest("the form holds no photo (a file part)")
        case .file, .files: APIError.badRequest("the form holds no file (a part with a filename)")
        }
    }

    private var tooManyParts: APIError {
        APIError.badRequest(
            "the form has more than \(Self.maxParts) parts\(carrying == .photo ? " before its photo" : "")")
    }

    static let malformed = APIError.badRequest("the form is not multipart/form-data as its boundary says")
    static let headersTooLarge = APIError.badRequest(
        "the form's part headers are over \(maxPartHeaderBytes) bytes a part or \(maxHeaderBytes) in all")
    static let secondFile = APIError.badRequest("the form holds more than one file: send one file a request")
}
