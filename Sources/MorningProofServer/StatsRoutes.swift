import Foundation
import Hummingbird
import MorningProofService

/// `/api/stats/summary`: the seed's check-in summary, on the server's day.
struct StatsRoutes {
    let scope: RequestScope
    let dailyUpdates: DailyUpdateService

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/stats/summary", summary)
    }

    @Sendable func summary(_ request: Request, _ context: ServerContext) async throws -> Response {
        let summary = try await dailyUpdates.summary(token: try scope.token(request), now: try scope.now(request))
        return JSONResponse.make(.ok, SummaryJSON(summary))
    }
}
