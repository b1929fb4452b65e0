import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// Sign-up, sign-in and sign-out, and the account's profile.
struct AuthRoutes {
    let scope: RequestScope
    var accounts: AccountService { scope.accounts }
    var bodyLimit: Int { scope.configuration.bodyLimit }

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/auth/signup", signUp)
        table.add(.post, "/api/auth/login", logIn)
        table.add(.post, "/api/auth/logout", logOut)
        table.add(.get, "/api/auth/me", me)
        table.add(.patch, "/api/auth/profile", changeProfile)
    }

    @Sendable func signUp(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["email", "password", "timezone"])
        let signUp = try await accounts.signUp(
            email: try body.requiredString("email"), password: try body.requiredString("password"),
            timeZone: try body.string("timezone"), address: context.remoteAddress, now: scope.realNow(),
            userAgent: request.headers[.userAgent])
        // 200 when the email had an account and this was its password: a sign-in (`AccountService.signUp`).
        return JSONResponse.make(
            signUp.created ? .created : .ok, SignUpJSON(token: signUp.token.token, user: UserJSON(signUp.profile)))
    }

    @Sendable func logIn(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["email", "password"])
        let token = try await accounts.logIn(
            email: try body.requiredString("email"), password: try body.requiredString("password"),
            address: context.remoteAddress, now: scope.realNow(), userAgent: request.headers[.userAgent])
        let expires = token.record.expiresAt.map { ISOInstant.format($0, in: TimeZone(secondsFromGMT: 0)!) }
        return JSONResponse.make(.ok, LogInJSON(token: token.token, expiresAt: expires ?? ""))
    }

    @Sendable func logOut(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try await scope.account(request)
        if let token = request.headers[.authorization]?.split(separator: " ", maxSplits: 1).last {
            try await accounts.tokens.logOut(token: token.trimmingCharacters(in: .whitespaces))
        }
        return Response(status: .noContent)
    }

    @Sendable func me(_ request: Request, _ context: ServerContext) async throws -> Response {
        JSONResponse.make(.ok, UserJSON(try await scope.account(request)))
    }

    @Sendable func changeProfile(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["timezone", "dayStart", "weekStart"])
        let weekStart = try body.string("weekStart")
        // The spec names the seven days in full; `config set` also takes "mon".
        if let weekStart, !Weekday.names.contains(weekStart) {
            throw APIError.badRequest("bad weekStart \"\(weekStart)\": use monday, tuesday, ... or sunday")
        }
        let profile = try await accounts.changeProfile(
            of: account, timeZone: try body.string("timezone"), dayStart: try body.string("dayStart"),
            weekStart: weekStart, now: try scope.now(request))
        return JSONResponse.make(.ok, UserJSON(profile))
    }
}
