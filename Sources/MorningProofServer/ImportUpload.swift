import Foundation
import Hummingbird
import NIOCore

/// An import's body as `POST /api/import` receives it: the program it comes from (`?kind=`, else
/// its Content-Type, else its first bytes), and its file or files streamed to disk within the
/// import limit, never held whole in memory. A form may carry one file, or harsh's two (`habits`
/// and `log`).
struct ImportUpload {
    /// The programs an import reads, as `morningproof import` names them.
    enum Kind: String, Sendable {
        case loop, harsh, json
    }

    /// A file received: the form part's name ("" for a body that is the file), where it is on disk,
    /// and its first bytes, which tell its kind.
    struct Part: Sendable {
        var name: String
        var path: String
        var head: [UInt8]
        /// What messages call it: the part's name, or "the upload".
        var label: String { name.isEmpty ? "the upload" : name }
    }

    /// The media types an import is taken as, besides a form.
    static let mediaTypes: [String: Kind?] = [
        "application/json": .json, "application/zip": .loop, "application/x-zip-compressed": .loop,
        "application/vnd.sqlite3": .loop, "application/x-sqlite3": .loop, "application/octet-stream": nil,
    ]
    /// The most files a form carries: harsh's two.
    static let maxFiles = 2

    /// What `?kind=` or the Content-Type said; nil: the first bytes say.
    let kind: Kind?
    let limit: BodyLimit
    /// The form carrying the files; nil for a body that is the file.
    private let form: MultipartForm?

    /// The upload a request announces: 400 for a `kind` that is none, 415 for another type.
    init(_ request: Request, limit bytes: Int) throws {
        var kind: Kind? = nil
        if let name = request.uri.queryParameters["kind"] {
            guard let named = Kind(rawValue: String(name)) else {
                throw APIError.badRequest("\"kind\" is loop, harsh or json, not \"\(name)\"")
            }
            kind = named
        }
        let media = MediaType(request.headers[.contentType] ?? "")
        if media.type == "multipart/form-data" {
            form = try MultipartForm(contentType: media, carrying: .files)
        } else if let typed = Self.mediaTypes[media.type] {
            form = nil
            kind = kind ?? typed
        } else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message:
                    "send an import as \(Self.mediaTypes.keys.sorted().joined(separator: ", ")) or multipart/form-data, not \(media.type.isEmpty ? "nothing" : media.type)"
            )
        }
        if kind == .harsh && form == nil {
            throw APIError.badRequest(
                "harsh's import is two files: send a multipart/form-data form with parts named habits and log")
        }
        self.kind = kind
        limit = BodyLimit(bytes: bytes, what: "the import")
    }

    /// 413 when the request's Content-Length says more than the limit: before anything else is done for it.
    func checkDeclaredLength(_ request: Request) throws {
        if limit.declaresMore(request) { throw limit.tooLarge }
    }

    /// Writes the body (a form's file parts, each to a file of `files`) to disk: 413 as soon as the
    /// bytes that arrived pass the limit, 400 for a form of more files than `files` or two parts of one name.
    func receive(_ request: Request, into files: [ReceivedFile]) async throws -> [Part] {
        try checkDeclaredLength(request)
        var form = form
        var received = 0
        var parts: [Part] = []
        func write(_ index: Int, _ name: String, _ bytes: UnsafeRawBufferPointer) throws {
            if index == parts.count {
                guard index < files.count else {
                    throw APIError.badRequest(
                        "the form holds more than \(files.count) files: an import is one file, or harsh's habits and log"
                    )
                }
                if parts.contains(where: { $0.name == name }) {
                    throw APIError.badRequest("the form holds two files named \"\(name)\"")
                }
                parts.append(Part(name: name, path: files[index].path, head: []))
            }
            if parts[index].head.count < 64 { parts[index].head += bytes.prefix(64 - parts[index].head.count) }
            try files[index].write(bytes)
        }
        for try await chunk in request.body {
            received += chunk.readableBytes
            guard received <= limit.bytes else { throw limit.tooLarge }
            if form != nil {
                try form!.feedParts(chunk) { part, bytes in try write(part.index, part.name, bytes) }
            } else {
                try chunk.withUnsafeReadableBytes { try write(0, "", $0) }
            }
        }
        try form?.finish()
        if parts.isEmpty { parts.append(Part(name: "", path: files[0].path, head: [])) }
        for file in files { file.finish() }
        return parts
    }

    /// The kind of what was received: as said, else harsh for parts named habits and log, else by the
    /// file's first bytes. 400 when it is none of them, or its files do not fit its kind.
    func kind(of parts: [Part]) throws -> Kind {
        let names = Set(parts.map(\.name))
        let kind = try self.kind ?? (names == ["habits", "log"] ? .harsh : Self.sniff(parts[0].head))
        switch kind {
        case .harsh where names != ["habits", "log"]:
            throw APIError.badRequest(
                "harsh's import is a form with two files, its parts named habits and log (not \(names.sorted().joined(separator: " and ")))"
            )
        case .loop where parts.count > 1, .json where parts.count > 1:
            throw APIError.badRequest("a \(kind.rawValue) import is one file; the form holds \(parts.count)")
        default: return kind
        }
    }

    /// A Loop backup (SQLite) or CSV export (zip), or our JSON, by its first bytes.
    static func sniff(_ head: [UInt8]) throws -> Kind {
        if head.starts(with: Array("SQLite format 3\0".utf8)) || head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return .loop
        }
        if head.first(where: { !Character(UnicodeScalar($0)).isWhitespace }) == UInt8(ascii: "{") { return .json }
        throw APIError.badRequest(
            "the upload is not a Loop Habit Tracker backup (.db) or CSV export (.zip), harsh's habits and log, or a MorningProof export (JSON)"
        )
    }
}
