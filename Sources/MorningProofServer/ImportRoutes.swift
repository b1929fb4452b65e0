import Foundation
import Hummingbird
import MorningProofCore
import MorningProofInterchange
import MorningProofService
import MorningProofStoreContract

/// `POST /api/import` (issue 41): what `morningproof import` reads (a Loop backup or CSV zip,
/// harsh's habits and log, our JSON export), sent by a signed-in person, imported into their
/// account through the same `ImportService` in one transaction.
struct ImportRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/import", importHistory)
    }

    /// Imports' own places: `limit` at once server-wide (503 past it) and one per account (429), apart
    /// from the metric uploads', so that a phone's metrics are never refused for an import, nor an
    /// import for metrics.
    static func places(limit: Int) -> BoundedAdmission {
        BoundedAdmission(
            limit: limit, perAccount: 1,
            refusal: APIError(
                status: .serviceUnavailable, code: "busy",
                message: "the server is reading other imports; try again in a minute", headers: [.retryAfter: "30"]),
            ownShareRefusal: APIError(
                status: .tooManyRequests, code: "upload_in_progress",
                message: "this account is already sending an import; send the next one when that one has ended",
                headers: [.retryAfter: "30"]))
    }

    /// The token is checked first (a full account's only), the type next (415), then a place among
    /// the imports (`places`: 503; one at a time per account, 429): only then is the body written to private
    /// files, read on the CPU pool and applied, merging into habits of the same name (the days here
    /// win, so the same file twice adds nothing). 413 past the limit, 400 for what is no such file.
    @Sendable func importHistory(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let upload = try ImportUpload(request, limit: scope.configuration.importLimit)
        try upload.checkDeclaredLength(request)
        guard let store = signedIn.database as? any InterchangeStore else {
            throw APIError(status: .serviceUnavailable, code: "unavailable", message: "this database cannot import")
        }
        let folder = scope.configuration.uploadFolder
        let reader = scope.configuration.loopBackupReader ?? NoLoopBackupReader()
        let (kind, plan, file) = try await signedIn.run { account in
            try await scope.importUploads.run(for: account.account.id) {
                try await ReceivedFile.with(in: folder) { first in
                    try await ReceivedFile.with(in: folder) { second in
                        let parts = try await upload.receive(request, into: [first, second])
                        let kind = try upload.kind(of: parts)
                        let service = ImportService(database: store, clock: account.clock, loopBackupReader: reader)
                        let plan = try await Self.relabeling(parts) {
                            try await Self.run(kind, parts, service: service, now: account.now, cpu: scope.cpuWork)
                        }
                        return (kind, plan, parts.map(\.label).joined(separator: " and "))
                    }
                }
            }
        }
        return JSONResponse.make(.ok, ImportReport(plan, source: kind.rawValue, file: file, applied: true))
    }

    private static func run(
        _ kind: ImportUpload.Kind, _ parts: [ImportUpload.Part], service: ImportService, now: Date, cpu: CPUWorkPool
    ) async throws -> ImportPlan {
        switch kind {
        case .harsh:
            let path = { (name: String) in parts.first { $0.name == name }?.path ?? "" }
            return try await service.runHarsh(
                habits: path("habits"), log: path("log"), merge: true, apply: true, now: now, cpu: cpu)
        case .loop: return try await service.run(.loop(parts[0].path), merge: true, apply: true, now: now, cpu: cpu)
        case .json: return try await service.run(.json(parts[0].path), merge: true, apply: true, now: now, cpu: cpu)
        }
    }

    /// `body`'s plan and errors with the server's paths of the received files replaced by what the
    /// person sent: "the upload", or a form part's name.
    private static func relabeling(
        _ parts: [ImportUpload.Part], _ body: () async throws -> ImportPlan
    ) async throws -> ImportPlan {
        func relabel(_ text: String) -> String {
            parts.reduce(text) { $0.replacingOccurrences(of: $1.path, with: $1.label) }
        }
        do {
            var plan = try await body()
            plan.warnings = plan.warnings.map {
                ImportWarning(file: relabel($0.file), place: $0.place, message: relabel($0.message))
            }
            return plan
        } catch let error as MorningProofError {
            throw MorningProofError(error.kind, code: error.code, relabel(error.message))
        } catch let error as any MorningProofErrorConvertible {
            let converted = error.morningProofError
            throw MorningProofError(converted.kind, code: converted.code, relabel(converted.message))
        }
    }
}

/// A server given no reader of Loop's SQLite backups refuses them (its CSV zip is read without one).
private struct NoLoopBackupReader: LoopBackupReader {
    func habits(path: String, label: String, context: ImportContext) throws -> ImportStream {
        throw APIError(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            message: "this server does not read Loop's .db backups: send Loop's CSV export (.zip) instead")
    }
}
