import Hummingbird
import NIOCore

/// How much of a request body a route reads. Past the limit the answer is 413, decided while the
/// body streams: a chunked body has no Content-Length to check first, and is never held whole.
struct BodyLimit: Sendable {
    /// The most bytes read: `ServerConfiguration.bodyLimit` (64 KiB) for a small route's JSON.
    let bytes: Int
    /// What the body is, for the 413's message: "the request body", "the photo".
    let what: String

    /// A photo proof: 25 MiB, so that a phone's 48-megapixel JPEG fits.
    static let photo = BodyLimit(bytes: 25 * 1024 * 1024, what: "the photo")

    /// The whole body of `request`, within the limit: 413 at once when its Content-Length says
    /// more, else as soon as the bytes that arrived pass the limit. Routes that take a token
    /// call this only after the token is checked, so that a stranger's body is never read.
    func collect(_ request: Request) async throws -> ByteBuffer {
        if declaresMore(request) { throw tooLarge }
        do {
            return try await request.body.collect(upTo: bytes)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
    }

    /// Whether the request's Content-Length says more than the limit. A length too long for an `Int`
    /// (up to 2^64 - 1 passes the HTTP parser) says more too: it was taken for no length at all, and
    /// the request waited for its body until the body deadline, unanswered.
    func declaresMore(_ request: Request) -> Bool {
        guard let text = request.headers[.contentLength], !text.isEmpty else { return false }
        guard let length = Int(text) else {
            return text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        return length > bytes
    }

    var tooLarge: APIError {
        let size = bytes % (1024 * 1024) == 0 ? "\(bytes / 1024 / 1024) MB" : "\(bytes) bytes"
        return APIError(status: .contentTooLarge, code: "payload_too_large", message: "\(what) is over \(size)")
    }
}
