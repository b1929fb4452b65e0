import Foundation
import Hummingbird
import MorningProofService

/// `/api/status`: today at a glance, what `status --json` prints, for the signed-in account.
struct StatusRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/status", status)
    }

    @Sendable func status(_ request: Request, _ context: ServerContext) async throws -> Response {
        let status = try await scope.forAccount(request) { account in
            await StatusJSON(
                try account.reports.status(now: account.now))
        }
        return JSONResponse.make(.ok, status)
    }
}
