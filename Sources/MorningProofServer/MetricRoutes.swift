import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `/api/metrics`: health data arriving from a phone (Health Auto Export's REST automation, an
/// Apple export shared to the web page) and the day totals, for the signed-in account.
struct MetricRoutes {
    let scope: RequestScope
    /// Day totals being computed for each account: at most two at once, so one account's loop
    /// takes at most two of the pool's threads (the others are answered 429 with `Retry-After`).
    let totalReads = PerAccountAdmission(limit: 2)

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
        let outcome = try await signedIn.run { account in
            try await scope.metricUploads.run(for: account.account.id) {
                try await ReceivedFile.with(in: scope.configuration.uploadFolder) { file in
                    try await account.metrics(readingOn: scope.cpuWork)
                        .ingest(try await upload.receive(request, into: file), now: account.now)
                }
            }
        }
        switch outcome {
        case .ingested(let report): return JSONResponse.make(.ok, IngestJSON(report))
        case .tooLarge: throw upload.metricsLimit.tooLarge
        }
    }

    /// The day totals from `from` through `to` (both `YYYY-MM-DD`, supported days, at most
    /// `MetricDaysJSON.maxDays` apart), as `metrics show --json` prints them.
    @Sendable func totals(_ request: Request, _ context: ServerContext) async throws -> Response {
        let document = try await scope.forAccount(request) { account in
            let (from, to) = (try Self.day(request, "from"), try Self.day(request, "to"))
            return try await totalReads.run(account.account.id) {
                try await MetricDaysJSON.read(from: from, to: to, in: account.database, cpu: scope.cpuWork)
            }
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
        try LocalDay.checkSupported(day, field: "\"\(name)\"")
        return day
    }
}
