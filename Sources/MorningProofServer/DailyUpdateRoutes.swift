import Foundation
import Hummingbird
import MorningProofService

/// `/api/age/daily-update`: the seed's daily check-in, recorded on the server's day.
struct DailyUpdateRoutes {
    let scope: RequestScope
    let dailyUpdates: DailyUpdateService

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/age/daily-update", dailyUpdate)
    }

    @Sendable func dailyUpdate(_ request: Request, _ context: ServerContext) async throws -> Response {
        // The token is checked before the body is read; recording checks it again in the same trip.
        let token = try scope.token(request)
        try await scope.checkToken(token)
        let body = try await JSONBody.read(
            request, limit: scope.configuration.bodyLimit, allowed: ["metrics", "score", "date"])
        if body.fields["date"] != nil {
            throw APIError.badRequest("send no date: the server decides the day from your time zone")
        }
        guard let metrics = try body.object("metrics") else { throw APIError.badRequest("\"metrics\" is missing") }
        let update = try await dailyUpdates.record(
            metrics: metrics, score: try body.number("score"), token: token, now: try scope.now(request))
        return JSONResponse.make(.ok, DailyUpdateJSON(update))
    }
}
