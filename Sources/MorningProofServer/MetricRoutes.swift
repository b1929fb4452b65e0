import Foundation
import HealthMetrics
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `/api/metrics`: health data arriving from a phone (Health Auto Export's REST automation, an
/// Apple export shared to the web page) and the day totals, for the signed-in account.
struct MetricRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/metrics", ingest)
        table.add(.get, "/api/metrics", totals)
    }

    /// Reads the body as `metrics import` reads a file, stores it as the account's and judges its
    /// goals. The token is checked first (a metrics token is enough), the Content-Type next (415),
    /// then a place among the uploads (503): only then is the body read, to a private file.
    @Sendable func ingest(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request, for: .metricsUpload)
        let upload = try MetricUpload(contentType: request.headers[.contentType], configuration: scope.configuration)
        try upload.checkDeclaredLength(request)
        let report = try await signedIn.run { account in
            try await scope.metricUploads.run {
                try await ReceivedFile.with(in: scope.configuration.uploadFolder) { file in
                    let size = try await upload.receive(request, into: file)
                    let format = try upload.format(of: file, size: size)
                    let store = try Self.metricStore(account.database)
                    do {
                        return try await MetricIngest(store: store, clock: account.clock, cpu: scope.cpuWork)
                            .ingest(file: file.path, as: format, now: account.now)
                    } catch let error as MorningProofError {
                        // The reader names the file it read: the client knows it as its body.
                        throw MorningProofError(
                            error.kind, error.message.replacingOccurrences(of: file.path, with: "the body"))
                    }
                }
            }
        }
        return JSONResponse.make(.ok, IngestJSON(report))
    }

    /// The day totals from `from` through `to` (both `YYYY-MM-DD`), as `metrics show --json` prints them.
    @Sendable func totals(_ request: Request, _ context: ServerContext) async throws -> Response {
        let document = try await scope.forAccount(request) { account in
            guard let store = account.database as? any MetricImportStore else { throw Self.unavailable }
            return try await MetricDaysJSON.read(
                from: try Self.day(request, "from"), to: try Self.day(request, "to"), in: store)
        }
        return JSONResponse.make(.ok, document)
    }

    private static func day(_ request: Request, _ name: String) throws -> LocalDay {
        guard let text = request.uri.queryParameters[Substring(name)] else {
            throw APIError.badRequest("\"\(name)\" is missing: GET /api/metrics?from=YYYY-MM-DD&to=YYYY-MM-DD")
        }
        guard let day = LocalDay(text) else {
            throw APIError.badRequest("\"\(name)\" must be a day as YYYY-MM-DD, not \"\(text)\"")
        }
        return day
    }

    /// The account's metric store. Both engines' stores are one once PostgreSQL's claims its
    /// notifications (`MetricIngestStore`); until then a store that is not is 503, asked after the
    /// body so that the limits answer as they will then.
    private static func metricStore(_ database: any AccountData) throws -> any MetricIngestStore {
        guard let store = database as? any MetricIngestStore else { throw unavailable }
        return store
    }

    private static let unavailable = APIError(
        status: .serviceUnavailable, code: "metrics_unavailable",
        message: "this server's database does not take metrics yet")
}
