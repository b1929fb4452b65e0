import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// What a person does to their own account beside signing in (issue 41): change the password,
/// sign out every other session, set a new password with a reset code.
struct AccountRoutes {
    let scope: RequestScope
    var accounts: AccountService { scope.accounts }
    var bodyLimit: Int { scope.configuration.bodyLimit }

    func add(to table: inout RouteTable) {
        table.add(.put, "/api/auth/password", changePassword)
        table.add(.post, "/api/auth/sign-out-others", signOutOthers)
        table.add(.post, "/api/auth/reset", reset)
        table.add(.post, "/api/auth/forgot", forgot)
        table.add(.get, "/api/auth/options", options)
    }

    /// `GET /api/auth/options`: what the sign-in page offers (a reset link by email, or asking the operator).
    @Sendable func options(_ request: Request, _ context: ServerContext) async throws -> Response {
        JSONResponse.make(.ok, ["passwordResetByEmail": mailConfigured])
    }

    var mailConfigured: Bool { scope.configuration.resetMail != nil && scope.configuration.publicURL != nil }

    /// `POST /api/auth/forgot {"email"}`: 202 whether or not the email has an account; the link is
    /// mailed after the answer (429 past the limit per address; past the one per email, nothing is sent).
    @Sendable func forgot(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["email"])
        let email = try body.requiredString("email")
        guard let mailer = scope.configuration.resetMail, let publicURL = scope.configuration.publicURL else {
            throw APIError(
                status: .notFound, code: "mail_not_configured",
                message: "this server sends no mail; ask its operator for a reset link")
        }
        let logger = context.logger
        let send = try await accounts.forgotPassword(
            email: email, address: context.remoteAddress, now: scope.realNow(), publicURL: publicURL, mailer: mailer,
            onFailure: { error in logger.warning("password-reset mail not sent: \(error)") })
        if let send { Task.detached { await send() } }
        return JSONResponse.make(
            .accepted, ["message": "if an account has this email, a link to set a new password is on its way"])
    }

    /// `PUT /api/auth/password {"current", "new", "signOutOthers"}`: 204.
    @Sendable func changePassword(_ request: Request, _ context: ServerContext) async throws -> Response {
        let presented = try scope.token(request)
        let account = try await scope.account(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["current", "new", "signOutOthers"])
        try await accounts.changePassword(
            of: account, current: try body.requiredString("current"), new: try body.requiredString("new"),
            signOutOthers: try body.bool("signOutOthers") ?? false, presented: presented,
            address: context.remoteAddress, now: scope.realNow())
        return Response(status: .noContent)
    }

    /// `POST /api/auth/sign-out-others`: revokes every token of the account but the one presented.
    @Sendable func signOutOthers(_ request: Request, _ context: ServerContext) async throws -> Response {
        let presented = try scope.token(request)
        let account = try await scope.account(request)
        let count = try await accounts.tokens.signOutOthers(accountID: account.id, current: presented)
        return JSONResponse.make(.ok, ["signedOut": count])
    }

    /// `POST /api/auth/reset {"code", "new"}`: 204; the code is used up and every session ends.
    @Sendable func reset(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["code", "new"])
        try await accounts.resetPassword(
            code: try body.requiredString("code"), new: try body.requiredString("new"), now: scope.realNow())
        return Response(status: .noContent)
    }
}
