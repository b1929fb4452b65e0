import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import NIOCore

/// A person's data as a whole (issue 41): deleting the account with everything it owns, and
/// taking its whole history out.
struct DataCareRoutes {
    let scope: RequestScope
    var accounts: AccountService { scope.accounts }
    var bodyLimit: Int { scope.configuration.bodyLimit }

    func add(to table: inout RouteTable) {
        table.add(.delete, "/api/auth/account", deleteAccount)
        table.add(.get, "/api/export", export)
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

    /// `GET /api/export[?format=json|csv]`: the account's whole history, the document that
    /// `morningproof export` writes (and `morningproof import json` or `POST /api/import` reads back),
    /// or its CSV, as a download.
    @Sendable func export(_ request: Request, _ context: ServerContext) async throws -> Response {
        let name = HabitRoutes.query(request, "format") ?? ExportService.Format.json.rawValue
        guard let format = ExportService.Format(rawValue: name) else {
            throw APIError.badRequest("\"format\" is json or csv, not \"\(name)\"")
        }
        let signedIn = try await scope.signIn(request)
        guard let store = signedIn.database as? any AccountExportStore & AccountData else {
            throw APIError(status: .serviceUnavailable, code: "unavailable", message: "this database cannot export")
        }
        let data: Data
        let day: String
        switch format {
        case .json:
            // The document needs no clock: an account that has not set its zone exports too.
            data = try await store.exportDocument().encoded()
            day = String(ISOInstant.format(signedIn.now, in: .gmt).prefix(10))
        case .csv:
            (data, day) = try await signedIn.run { account in
                let export = try await ExportService(database: store, clock: account.clock).export(
                    .csv, now: account.now)
                return (export.data, account.clock.day(at: account.now).description)
            }
        }
        let type = format == .json ? "application/json" : "text/csv; charset=utf-8"
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"morningproof-export-\(day).\(format.rawValue)\"",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(data: data)))
    }
}
