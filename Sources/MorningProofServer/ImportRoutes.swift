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

    /// The token is checked first (a full account's only), the type next (415), then a place among
    /// the uploads (503; one at a time per account, 429): only then is the body written to private
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
        let (kind, plan) = try await signedIn.run { account in
            try await scope.metricUploads.run(for: account.account.id) {
                try await ReceivedFile.with(in: folder) { first in
                    try await ReceivedFile.with(in: folder) { second in
                        let parts = try await upload.receive(request, into: [first, second])
                        let kind = try upload.kind(of: parts)
                        let service = ImportService(database: store, clock: account.clock, loopBackupReader: reader)
                        let plan = try await Self.relabeling(parts) {
                            try await Self.run(kind, parts, service: service, now: account.now, cpu: scope.cpuWork)
                        }
                        return (kind, plan)
                    }
                }
            }
        }
        return JSONResponse.make(.ok, ImportResultJSON(plan, kind: kind))
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
    func read(path: String, label: String) throws -> LoopBackup {
        throw APIError(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            message: "this server does not read Loop's .db backups: send Loop's CSV export (.zip) instead")
    }
}

/// What an import did, as `morningproof import --json` reports it: the habits created and merged
/// into, the entries added, and every row left out with where it was.
struct ImportResultJSON: Encodable {
    struct Habit: Encodable {
        var name: String
        var action: String
        var mergeInto: String?
        var entriesAdded: Int
        var alreadyHere: Int
        var conflicts: Int
    }

    struct Warning: Encodable {
        var `where`: String
        var message: String
    }

    var source: String
    var habitsAdded: Int
    var habitsMerged: Int
    var entriesAdded: Int
    var alreadyHere: Int
    var conflicts: Int
    var firstDay: String?
    var lastDay: String?
    var habits: [Habit]
    var warnings: [Warning]

    init(_ plan: ImportPlan, kind: ImportUpload.Kind) {
        source = kind.rawValue
        habitsAdded = plan.habitsCreated
        habitsMerged = plan.habitsMerged
        entriesAdded = plan.entriesAdded
        alreadyHere = plan.items.reduce(0) { $0 + $1.alreadyHere }
        conflicts = plan.conflicts
        firstDay = plan.dayRange?.lowerBound.description
        lastDay = plan.dayRange?.upperBound.description
        habits = plan.items.map { item in
            Habit(
                name: item.habit.name, action: item.mergeInto == nil ? "create" : "merge",
                mergeInto: item.mergeInto?.name, entriesAdded: item.newEntries.count, alreadyHere: item.alreadyHere,
                conflicts: item.conflicts.count)
        }
        warnings = plan.warnings.map { warning in
            switch warning.place {
            case .line(let number): Warning(where: "\(warning.file) line \(number)", message: warning.message)
            case .path(let path): Warning(where: "\(warning.file) \(path)", message: warning.message)
            }
        }
    }
}
