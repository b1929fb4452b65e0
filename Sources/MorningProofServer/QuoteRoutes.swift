import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService

/// `/api/quote` and `/api/quote/history`: the quote of the moment and the ones shown before.
struct QuoteRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/quote", quote)
        table.add(.get, "/api/quote/history", quoteHistory)
    }

    @Sendable func quote(_ request: Request, _ context: ServerContext) async throws -> Response {
        let moment = try await scope.forAccount(request) { account in
            await QuoteMomentJSON(at: account.now, book: try QuoteSource.load(account.database), clock: account.clock)
        }
        return JSONResponse.make(.ok, moment)
    }

    @Sendable func quoteHistory(_ request: Request, _ context: ServerContext) async throws -> Response {
        let date = request.uri.queryParameters["date"].map(String.init)
        let history = try await scope.forAccount(request) { account in
            await QuoteHistoryJSON(
                try QuoteSource.history(account.database, clock: account.clock, date: date, now: account.now))
        }
        return JSONResponse.make(.ok, history)
    }
}
