import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// A person's data as a whole (issue 41): deleting the account with everything it owns.
struct DataCareRoutes {
    let scope: RequestScope
    var accounts: AccountService { scope.accounts }
    var bodyLimit: Int { scope.configuration.bodyLimit }

    func add(to table: inout RouteTable) {
        table.add(.delete, "/api/auth/account", deleteAccount)
    }

    /// `DELETE /api/auth/account {"password"}`: 204 once every row of the account is gone; 403
    /// `wrong_password` (counted like a sign-in), 403 `owner_account` for the CLI's data.
    @Sendable func deleteAccount(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["password"])
        try await accounts.deleteAccount(
            of: account, password: try body.requiredString("password"), address: context.remoteAddress,
            now: scope.realNow())
        return Response(status: .noContent)
    }
}
