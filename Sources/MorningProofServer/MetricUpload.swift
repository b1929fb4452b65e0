import Foundation
import Hummingbird
import MorningProofService
import NIOCore

/// A metrics body as `POST /api/metrics` receives it: the type its Content-Type declares, the limit
/// that type has, and the body streamed to a file within it (a form's file part cut out as it
/// streams), never held whole in memory.
struct MetricUpload {
    /// The charsets a body may name: UTF-8 and its subset ASCII.
    static let charsets: Set<String> = ["utf-8", "utf8", "us-ascii"]

    /// What the Content-Type declares: a format, or a form.
    let type: MetricBodyType
    /// The most bytes read: the Apple export's limit for an export or a form, else the metrics limit.
    let limit: BodyLimit
    /// The limit of a form's file once its format is known to be no Apple export.
    let metricsLimit: BodyLimit
    /// The form that carries the file; nil for a body that is the file.
    private let form: MultipartForm?

    /// The upload a Content-Type announces: 415 with the types taken for another, 400 for a form without a boundary.
    init(contentType: String?, configuration: ServerConfiguration) throws {
        let media = MediaType(contentType ?? "")
        guard let type = MetricBodyType(mediaType: media.type) else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message:
                    "send metrics as \(MetricBodyType.mediaTypes.joined(separator: ", ")), not \(media.type.isEmpty ? "nothing" : media.type)"
            )
        }
        // The readers read UTF-8: a body in another charset would be misread, not refused.
        if let charset = media.parameters["charset"]?.lowercased(), !Self.charsets.contains(charset) {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message: "metrics are read as UTF-8: send charset=utf-8 or none, not \(charset)")
        }
        self.type = type
        form = type.isForm ? try MultipartForm(contentType: media, carrying: .file) : nil
        metricsLimit = BodyLimit(bytes: configuration.metricsLimit, what: "the metrics body")
        limit =
            type.mayBeAppleExport
            ? BodyLimit(bytes: configuration.metricsExportLimit, what: "the Apple Health export") : metricsLimit
    }

    /// 413 when the request's Content-Length says more than the limit: before anything else is done for it.
    func checkDeclaredLength(_ request: Request) throws {
        if limit.declaresMore(request) { throw limit.tooLarge }
    }

    /// Writes the body (a form's file part) to `file`: 413 at once when Content-Length says more than
    /// the limit, else as soon as the bytes that arrived pass it. Returns the body as the ingest reads
    /// it, named "the body" in its messages.
    func receive(_ request: Request, into file: ReceivedFile) async throws -> ReceivedMetrics {
        try checkDeclaredLength(request)
        var form = form
        var (received, written) = (0, 0)
        for try await chunk in request.body {
            received += chunk.readableBytes
            guard received <= limit.bytes else { throw limit.tooLarge }
            if form != nil {
                try form!.feed(chunk) { bytes in
                    try file.write(bytes)
                    written += bytes.count
                }
            } else {
                try file.write(chunk)
                written += chunk.readableBytes
            }
        }
        try form?.finish()
        file.finish()
        return ReceivedMetrics(path: file.path, size: written, type: type, label: "the body", limit: metricsLimit.bytes)
    }
}
