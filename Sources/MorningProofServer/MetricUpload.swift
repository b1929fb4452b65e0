import Foundation
import HealthMetrics
import Hummingbird
import NIOCore

/// A metrics body as `POST /api/metrics` receives it: the format its Content-Type names, the limit
/// that format has, and the body streamed to a file within it (a form's file part cut out as it
/// streams), never held whole in memory.
struct MetricUpload {
    /// The Content-Types taken and the format each names; nil for a form, whose file's format is
    /// found from its content once on disk.
    static let types: [(type: String, format: MetricFileFormat?)] = [
        ("application/json", .healthAutoExport), ("application/x-ndjson", .jsonLines),
        ("application/jsonl", .jsonLines), ("text/csv", .csv), ("application/zip", .appleHealthZip),
        ("application/xml", .appleHealthXML), ("text/xml", .appleHealthXML), ("multipart/form-data", nil),
    ]

    /// The charsets a body may name: UTF-8 and its subset ASCII.
    static let charsets: Set<String> = ["utf-8", "utf8", "us-ascii"]

    /// The format named by the Content-Type; nil for a form.
    let format: MetricFileFormat?
    /// The most bytes read: the Apple export's limit for an export or a form, else the metrics limit.
    let limit: BodyLimit
    /// The limit of a form's file once its format is known to be no Apple export.
    let metricsLimit: BodyLimit
    /// The form that carries the file; nil for a body that is the file.
    private let form: MultipartForm?

    /// The upload a Content-Type announces: 415 with the types taken for another, 400 for a form without a boundary.
    init(contentType: String?, configuration: ServerConfiguration) throws {
        let type = MediaType(contentType ?? "")
        guard let known = Self.types.first(where: { $0.type == type.type }) else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message:
                    "send metrics as \(Self.types.map(\.type).joined(separator: ", ")), not \(type.type.isEmpty ? "nothing" : type.type)"
            )
        }
        // The readers read UTF-8: a body in another charset would be misread, not refused.
        if let charset = type.parameters["charset"]?.lowercased(), !Self.charsets.contains(charset) {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message: "metrics are read as UTF-8: send charset=utf-8 or none, not \(charset)")
        }
        format = known.format
        form = known.format == nil ? try MultipartForm(contentType: type, carrying: .file) : nil
        metricsLimit = BodyLimit(bytes: configuration.metricsLimit, what: "the metrics body")
        limit =
            known.format?.isAppleExport ?? true
            ? BodyLimit(bytes: configuration.metricsExportLimit, what: "the Apple Health export") : metricsLimit
    }

    /// 413 when the request's Content-Length says more than the limit: before anything else is done for it.
    func checkDeclaredLength(_ request: Request) throws {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit.bytes { throw limit.tooLarge }
    }

    /// Writes the body (a form's file part) to `file`: 413 at once when Content-Length says more than
    /// the limit, else as soon as the bytes that arrived pass it. Returns the bytes written.
    func receive(_ request: Request, into file: ReceivedFile) async throws -> Int {
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
        return written
    }

    /// The format to read the file as: the one the Content-Type named, else the form's file's by its
    /// content (400 when it is no metrics file; 413 when it is no Apple export and over the metrics limit).
    func format(of file: ReceivedFile, size: Int) throws -> MetricFileFormat {
        if let format { return format }
        guard let found = try MetricFileFormat.detect(path: file.path) else {
            throw APIError.badRequest(
                "the form's file is not a metrics file (expected an Apple Health export.xml or export.zip, Health Auto Export JSON, CSV with date,metric,value or JSON Lines)"
            )
        }
        if !found.isAppleExport, size > metricsLimit.bytes { throw metricsLimit.tooLarge }
        return found
    }
}
