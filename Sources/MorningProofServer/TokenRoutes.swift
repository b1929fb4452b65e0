import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// Tokens for scripts, managed by the account they belong to (the settings screen): list, create
/// (the token is shown once, in the answer; `scope: "metrics"` makes one that only posts metrics),
/// revoke. Another account's token id is not found.
struct TokenRoutes {
    let scope: RequestScope
    var tokens: TokenService { scope.accounts.tokens }

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/tokens", list)
        table.add(.post, "/api/tokens", create)
        table.add(.delete, "/api/tokens/:id", revoke)
    }

    @Sendable func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let list = try await tokens.sessions(accountID: account.id, current: try scope.token(request)).map(
            TokenJSON.init)
        return JSONResponse.make(.ok, ["tokens": list])
    }

    @Sendable func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let body = try await JSONBody.read(request, limit: scope.configuration.bodyLimit, allowed: ["name", "scope"])
        let issued = try await tokens.createToken(
            accountID: account.id, name: try body.requiredString("name"), now: scope.realNow(),
            scope: try body.string("scope").map(TokenService.scope(named:)) ?? .full)
        return JSONResponse.make(.created, TokenJSON(issued.record, token: issued.token))
    }

    @Sendable func revoke(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIError(status: .notFound, code: "not_found", message: "no token has that id")
        }
        try await tokens.revokeToken(id: id, accountID: account.id)
        return Response(status: .noContent)
    }
}
