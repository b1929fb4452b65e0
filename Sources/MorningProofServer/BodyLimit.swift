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
        if let length = request.headers[.contentLength].flatMap(Int.init), length > bytes { throw tooLarge }
        do {
            return try await request.body.collect(upTo: bytes)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
    }

    var tooLarge: APIError {
        let size = bytes % (1024 * 1024) == 0 ? "\(bytes / 1024 / 1024) MB" : "\(bytes) bytes"
        return APIError(status: .contentTooLarge, code: "payload_too_large", message: "\(what) is over \(size)")
    }
}
