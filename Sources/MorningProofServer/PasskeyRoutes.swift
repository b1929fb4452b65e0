import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import WebAuthn

/// Passkeys (issue 41): adding one to the signed-in account, signing in with one, listing and
/// removing them. The relying party is the host of `--public-url` and the origin that URL's (a
/// ceremony from another address refused); without it, the request's own host
/// (`PasskeyRelyingParty`).
struct PasskeyRoutes {
    let scope: RequestScope
    let passkeys: PasskeyService
    var bodyLimit: Int { scope.configuration.bodyLimit }

    init(scope: RequestScope) {
        self.scope = scope
        self.passkeys = PasskeyService(accounts: scope.accounts)
    }

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/auth/passkeys/registration", registrationOptions)
        table.add(.post, "/api/auth/passkeys/registration/finish", finishRegistration)
        table.add(.post, "/api/auth/passkeys/authentication", authenticationOptions)
        table.add(.post, "/api/auth/passkeys/authentication/finish", finishAuthentication)
        table.add(.get, "/api/auth/passkeys", list)
        table.add(.delete, "/api/auth/passkeys/:id", remove)
    }

    /// `POST /api/auth/passkeys/registration`: the options for `navigator.credentials.create`.
    @Sendable func registrationOptions(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let options = try await passkeys.registrationOptions(
            for: account, relyingParty: try relyingParty(request, context), now: scope.realNow())
        return JSONResponse.make(.ok, options)
    }

    /// `POST /api/auth/passkeys/registration/finish {id, rawId?, type?, response, name?}`: 201 with the passkey.
    @Sendable func finishRegistration(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        let party = try relyingParty(request, context)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: Self.credentialFields)
        let response = try Self.response(body)
        let passkey = try await passkeys.finishRegistration(
            for: account, relyingParty: party,
            clientDataJSON: try Self.bytes(response, "clientDataJSON"),
            attestationObject: try Self.bytes(response, "attestationObject"), name: try body.string("name"),
            userAgent: request.headers[.userAgent], now: scope.realNow())
        return JSONResponse.make(.created, PasskeyJSON(passkey))
    }

    /// `POST /api/auth/passkeys/authentication`: the options for `navigator.credentials.get`.
    @Sendable func authenticationOptions(_ request: Request, _ context: ServerContext) async throws -> Response {
        let options = try await passkeys.authenticationOptions(
            relyingParty: try relyingParty(request, context), now: scope.realNow())
        return JSONResponse.make(.ok, options)
    }

    /// `POST /api/auth/passkeys/authentication/finish {id, response, ...}`: a session token, as a sign-in's.
    @Sendable func finishAuthentication(_ request: Request, _ context: ServerContext) async throws -> Response {
        let party = try relyingParty(request, context)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: Self.credentialFields)
        let response = try Self.response(body)
        let handle = try Self.optionalBytes(response, "userHandle")
        let assertion = PasskeyService.Assertion(
            credentialID: try body.requiredString("id"), clientDataJSON: try Self.bytes(response, "clientDataJSON"),
            authenticatorData: try Self.bytes(response, "authenticatorData"),
            signature: try Self.bytes(response, "signature"), userHandle: handle)
        let token = try await passkeys.signIn(
            with: assertion, relyingParty: party, address: context.remoteAddress,
            now: scope.realNow(), userAgent: request.headers[.userAgent])
        let expires = token.record.expiresAt.map { ISOInstant.format($0, in: TimeZone(secondsFromGMT: 0)!) }
        return JSONResponse.make(.ok, LogInJSON(token: token.token, expiresAt: expires ?? ""))
    }

    /// `GET /api/auth/passkeys`: the account's passkeys, oldest first.
    @Sendable func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        return JSONResponse.make(.ok, try await passkeys.passkeys(of: account.id).map(PasskeyJSON.init))
    }

    /// `DELETE /api/auth/passkeys/{id}`: 204; another account's id is 404, as an unknown one.
    @Sendable func remove(_ request: Request, _ context: ServerContext) async throws -> Response {
        let account = try await scope.account(request)
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIError(status: .notFound, code: "not_found", message: "no passkey has that id")
        }
        try await passkeys.remove(id: id, accountID: account.id)
        return Response(status: .noContent)
    }

    /// The relying party of this request (`PasskeyRelyingParty`): `--public-url`'s, or 400 `wrong_host`
    /// for a request from another address; without it, the request's own.
    func relyingParty(_ request: Request, _ context: ServerContext) throws -> RelyingParty {
        try PasskeyRelyingParty(publicURL: scope.configuration.publicURL, servesTLS: scope.configuration.tls != nil)
            .relyingParty(
                authority: request.head.authority, pageOrigin: request.headers[.origin], forwarded: context.origin)
    }

    /// The fields of a `PublicKeyCredential` as its `toJSON()` gives them, and a registration's
    /// `name` (one schema for both ceremonies: what one does not use, it ignores).
    static let credentialFields: Set<String> = [
        "id", "rawId", "type", "response", "authenticatorAttachment", "clientExtensionResults", "name",
    ]
    /// The fields of its `response`: a registration's and a sign-in's.
    static let responseFields: Set<String> = [
        "clientDataJSON", "attestationObject", "transports", "authenticatorData", "publicKey", "publicKeyAlgorithm",
        "signature", "userHandle",
    ]

    static func response(_ body: JSONBody) throws -> JSONBody {
        if let type = try body.string("type"), type != "public-key" {
            throw APIError.badRequest("\"type\" must be \"public-key\"")
        }
        guard case .some(.some(let response)) = try body.setting("response", allowed: Self.responseFields) else {
            throw APIError.badRequest("\"response\" is missing")
        }
        return response
    }

    static func bytes(_ response: JSONBody, _ key: String) throws -> [UInt8] {
        guard let bytes = try optionalBytes(response, key) else {
            throw APIError.badRequest("\"response.\(key)\" is missing")
        }
        return bytes
    }

    static func optionalBytes(_ response: JSONBody, _ key: String) throws -> [UInt8]? {
        guard !response.isNull(key), let text = try response.string(key) else { return nil }
        guard let data = Base64URL.decode(text) else {
            throw APIError.badRequest("\"response.\(key)\" must be base64url")
        }
        return Array(data)
    }
}
