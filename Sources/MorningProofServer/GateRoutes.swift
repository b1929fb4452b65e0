import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService

/// `/api/gate...`: the shield over HTTP. The gate's answer and its unlock open to a gate token
/// (the browser extension, a phone automation) as well as a full one; the settings and the pairing
/// code only to a full token; the pairing exchange to no token at all, a few tries per address.
/// The rule is `GateService`'s, as the CLI's `gate`: the routes parse, call it and format.
struct GateRoutes {
    let scope: RequestScope
    let pairing: GatePairingService

    init(scope: RequestScope) {
        self.scope = scope
        pairing = GatePairingService(tokens: scope.accounts.tokens)
    }

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/gate", gate)
        table.add(.post, "/api/gate/unlock", unlock)
        table.add(.get, "/api/gate/settings", settings)
        table.add(.get, "/api/gate/sites", sites)
        table.add(.put, "/api/gate/settings", replaceSettings)
        table.add(.post, "/api/gate/pairing", createPairingCode)
        table.add(.post, "/api/gate/pair", pair)
    }

    @Sendable func gate(_ request: Request, _ context: ServerContext) async throws -> Response {
        let format = request.uri.queryParameters["format"].map(String.init)
        guard format == nil || format == "json" || format == "text" else {
            throw APIError.badRequest("\"format\" is json or text, not \"\(format ?? "")\"")
        }
        let gate = try await scope.signIn(request, for: .gate).run { account in
            GateJSON(
                try await GateService(database: account.database, clock: account.clock).state(now: account.now),
                zone: account.clock.timeZone)
        }
        guard format == "text" else { return JSONResponse.make(.ok, gate) }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: gate.line)))
    }

    @Sendable func unlock(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request, for: .gate)
        let body = try await JSONBody.read(request, limit: scope.configuration.bodyLimit, allowed: ["reason"])
        let reason = try body.requiredString("reason")
        return try await signedIn.run { account in
            let gate = GateService(database: account.database, clock: account.clock)
            let result = try await gate.unlock(reason: reason, now: account.now)
            if case .limitReached(_, let next) = result.outcome {
                let standing = ExcuseStanding(
                    perWeek: result.gate.excuses.perWeek, left: 0, backOn: next, today: result.gate.day)
                return JSONResponse.make(
                    .conflict, NoExcuseLeftJSON(error: standing.sentence, excuseBackOn: next?.description))
            }
            return JSONResponse.make(
                .ok, GateJSON(try await gate.state(now: account.now), zone: account.clock.timeZone))
        }
    }

    @Sendable func settings(_ request: Request, _ context: ServerContext) async throws -> Response {
        let settings = try await scope.forAccount(request) { account in
            GateSettingsJSON(try await GateSettingsService(database: account.database).settings())
        }
        return JSONResponse.make(.ok, settings)
    }

    /// The shielded sites alone, for the browser extension: a gate token reads them (it shields them),
    /// and no other setting.
    @Sendable func sites(_ request: Request, _ context: ServerContext) async throws -> Response {
        let sites = try await scope.signIn(request, for: .gate).run { account in
            GateSitesJSON(sites: try await GateSettingsService(database: account.database).settings().sites)
        }
        return JSONResponse.make(.ok, sites)
    }

    @Sendable func replaceSettings(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(
            request, limit: scope.configuration.bodyLimit, allowed: ["sites", "cutoff", "days"])
        let sites = try body.strings("sites") ?? []
        let days = try body.strings("days") ?? Weekday.names
        let cutoff = body.isNull("cutoff") ? nil : try body.string("cutoff")
        let settings = try await signedIn.run { account in
            GateSettingsJSON(
                try await GateSettingsService(database: account.database).replace(
                    sites: sites, cutoff: cutoff, days: days))
        }
        return JSONResponse.make(.ok, settings)
    }

    @Sendable func createPairingCode(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let code = try await pairing.createCode(accountID: account.id, now: scope.realNow())
        var response = JSONResponse.make(.created, PairingCodeJSON(code))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func pair(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: scope.configuration.bodyLimit, allowed: ["code", "name"])
        let issued = try await pairing.pair(
            code: try body.requiredString("code"), name: try body.string("name"), address: context.remoteAddress,
            now: scope.realNow())
        var response = JSONResponse.make(.created, TokenJSON(issued.record, token: issued.token))
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

extension JSONBody {
    /// A list of strings (`"sites": ["instagram.com"]`); nil when left out (null is refused: 400).
    fileprivate func strings(_ key: String) throws -> [String]? {
        switch fields[key] {
        case nil: return nil
        case .array(let values)?:
            return try values.map { value in
                guard case .string(let text) = value else {
                    throw APIError.badRequest("\"\(key)\" must be a list of strings")
                }
                return text
            }
        default: throw APIError.badRequest("\"\(key)\" must be a list of strings")
        }
    }
}
