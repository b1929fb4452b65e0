import Foundation
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The photo of a `multipart/form-data` body (a form's file input), found with bounded work: at most
/// `maxParts` parts and `maxHeaderBytes` of part headers are looked at, and the search stops at
/// the first file part. A form of half a million empty parts is refused at its 17th.
struct MultipartPhoto {
    /// Parts looked at, the photo's included: a form holds a few fields beside its file.
    static let maxParts = 16
    /// Header bytes of one part, and of all the parts looked at.
    static let maxPartHeaderBytes = 8 * 1024
    static let maxHeaderBytes = 32 * 1024

    let boundary: [UInt8]

    /// The form's boundary, from the Content-Type's parameters as sent (RFC 2046: 1 to 70
    /// characters, case-sensitive); 400 when it is missing or not one.
    init(contentType: MediaType) throws {
        guard let boundary = contentType.parameters["boundary"], !boundary.isEmpty else {
            throw APIError.badRequest("multipart/form-data needs a boundary")
        }
        guard boundary.utf8.count <= 70, !boundary.hasSuffix(" "),
            boundary.unicodeScalars.allSatisfy({ Self.boundaryCharacters.contains($0) })
        else {
            throw APIError.badRequest("the multipart boundary is not 1 to 70 letters, digits or '()+_,-./:=? ")
        }
        self.boundary = Array(boundary.utf8)
    }

    private static let boundaryCharacters = CharacterSet(
        charactersIn: "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ")

    /// The body of the first part that is a file (a `filename` in its Content-Disposition, or an
    /// `image/` Content-Type). 400 when the form holds none, has too many parts or too many
    /// header bytes, or ends before its closing boundary.
    func firstFile(in body: ByteBuffer) throws -> Data {
        try body.withUnsafeReadableBytes { bytes in try firstFile(in: bytes) }
    }

    private func firstFile(in bytes: UnsafeRawBufferPointer) throws -> Data {
        let dashBoundary = Array("--".utf8) + boundary
        let delimiter = Array("\r\n".utf8) + dashBoundary
        // The first boundary opens the body, or follows a preamble and a line break.
        var cursor: Int
        if Self.starts(bytes, at: 0, with: dashBoundary) {
            cursor = dashBoundary.count
        } else if let found = Self.find(delimiter, in: bytes, from: 0) {
            cursor = found + delimiter.count
        } else {
            throw Self.noPhoto
        }
        var (parts, headerBytes) = (0, 0)
        while true {
            // After a boundary: "--" closes the form; else blanks and a line break open a part.
            if Self.starts(bytes, at: cursor, with: Array("--".utf8)) { throw Self.noPhoto }
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            guard Self.starts(bytes, at: cursor, with: Array("\r\n".utf8)) else { throw Self.malformed }
            cursor += 2
            parts += 1
            guard parts <= Self.maxParts else {
                throw APIError.badRequest("the form has more than \(Self.maxParts) parts before its photo")
            }
            let headers = try headerBlock(bytes, from: cursor)
            headerBytes += headers.count
            guard headerBytes <= Self.maxHeaderBytes else { throw Self.headersTooLarge }
            let start = cursor + headers.count
            guard let end = Self.find(delimiter, in: bytes, from: start) else { throw Self.malformed }
            if Self.isFile(headers: headers.text) {
                return Data(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            }
            cursor = end + delimiter.count
        }
    }

    /// A part's header lines and the blank line after them, at most `maxPartHeaderBytes`.
    private func headerBlock(_ bytes: UnsafeRawBufferPointer, from start: Int) throws -> (text: String, count: Int) {
        // A part without headers starts with the blank line.
        if Self.starts(bytes, at: start, with: Array("\r\n".utf8)) { return ("", 2) }
        let window = UnsafeRawBufferPointer(rebasing: bytes[start..<min(bytes.count, start + Self.maxPartHeaderBytes)])
        guard let end = Self.find(Array("\r\n\r\n".utf8), in: window, from: 0) else {
            throw window.count == Self.maxPartHeaderBytes ? Self.headersTooLarge : Self.malformed
        }
        return (String(decoding: window[0..<end], as: UTF8.self), end + 4)
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

    /// Where `needle` (a CR first; a boundary holds none after it) first occurs in `bytes`
    /// at or after `start`. libc's memchr finds each CR; a CR that is not the needle's start is
    /// passed after a few bytes compared, so the search is linear in the bytes.
    static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var next = start
        while next + needle.count <= bytes.count {
            guard let found = memchr(base + next, Int32(needle[0]), bytes.count - next - needle.count + 1) else {
                return nil
            }
            let at = base.distance(to: UnsafeRawPointer(found))
            if starts(bytes, at: at, with: needle) { return at }
            next = at + 1
        }
        return nil
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, at start: Int, with prefix: [UInt8]) -> Bool {
        guard start + prefix.count <= bytes.count else { return false }
        for index in prefix.indices where bytes[start + index] != prefix[index] { return false }
        return true
    }

    static let noPhoto = APIError.badRequest("the form holds no photo (a file part)")
    static let malformed = APIError.badRequest("the form is not multipart/form-data as its boundary says")
    static let headersTooLarge = APIError.badRequest(
        "the form's part headers are over \(maxPartHeaderBytes) bytes a part or \(maxHeaderBytes) in all")
}
