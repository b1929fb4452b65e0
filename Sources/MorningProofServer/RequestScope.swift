import Foundation
import HTTPTypes
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// What every route needs beside its use case: the moment a request acts at, and its account.
struct RequestScope: Sendable {
    static let clockHeader = HTTPField.Name("X-MorningProof-Now")!

    let accounts: AccountService
    /// The store of one account's habits, entries and settings, by the account's id.
    let habits: @Sendable (_ accountID: Int64) -> any PerAccountStore
    let configuration: ServerConfiguration
    /// The real time, for tokens and sign-in limits: the clock header never moves those.
    let realNow: @Sendable () -> Date
    /// Where CPU-heavy work runs (photo decoding, metric files); bcrypt has threads of its own.
    let cpuWork: CPUWorkPool
    /// Photo bodies read and judged at once, server-wide (each may hold 25 MB until it is judged),
    /// and at most half the CPU pool's threads' worth per account (`ProofRoutes.photoUploads`).
    let photoUploads: BoundedAdmission
    /// Metric bodies received and read at once, server-wide (each may take 512 MB of disk), and
    /// one at a time per account, so that one account's slow uploads never hold the others'.
    let metricUploads: BoundedAdmission
    /// Imports received and read at once, server-wide, and one at a time per account: places apart
    /// from the metric uploads' (`ImportRoutes.places`).
    let importUploads: BoundedAdmission
    /// Tokens found valid lately, for `checkToken`.
    let recentTokens = RecentTokens()

    /// The moment the request acts at: `X-MorningProof-Now` when the server allows it, else now.
    func now(_ request: Request) throws -> Date {
        guard configuration.allowClockHeader, let text = request.headers[Self.clockHeader] else { return realNow() }
        do {
            return try ISOInstant.read(text, field: "X-MorningProof-Now")
        } catch let error as MorningProofError {
            throw APIError.badRequest(error.message)
        }
    }

    /// The request's bearer token: 401 with `WWW-Authenticate: Bearer` without one.
    func token(_ request: Request) throws -> PresentedToken {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("sign in first: send Authorization: Bearer TOKEN")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw TokenService.invalidToken }
        return PresentedToken(parts[1].trimmingCharacters(in: .whitespaces), at: realNow())
    }

    /// Runs `body` for the account the request signs in (401 without one): `signIn` then `run`.
    func forAccount<T: Sendable>(
        _ request: Request, _ body: (AccountScope) async throws -> T
    ) async throws -> T {
        try await signIn(request).run(body)
    }

    /// Checks the request's token (401 without a valid one) and its clock header (400), before
    /// anything reads its body: a stranger's upload is answered without being read.
    func signIn(_ request: Request, for access: TokenAccess = .account) async throws -> SignedInRequest {
        let account = try await account(request, for: access)
        return SignedInRequest(account: account, database: habits(account.id), now: try now(request))
    }

    /// Refuses (401) a request whose token is not valid, before its body is read, for a route whose
    /// write checks the token again: a token found valid in the last minute is not asked again.
    func checkToken(_ token: PresentedToken) async throws {
        guard let hash = token.hash else { throw TokenService.invalidToken }
        if recentTokens.contains(hash, now: token.at) { return }
        guard try await accounts.tokens.authenticate(token) != nil else {
            throw await accounts.tokens.refusal(for: token)
        }
        recentTokens.insert(hash, now: token.at)
    }

    /// The account the request's bearer token signs in for `access`: 401 with `WWW-Authenticate`
    /// without a valid one (a metrics token is valid only for `.metricsUpload`).
    func account(_ request: Request, for access: TokenAccess = .account) async throws -> AccountProfile {
        let token = try token(request)
        guard let account = try await accounts.tokens.authenticate(token, for: access) else {
            throw await accounts.tokens.refusal(for: token)
        }
        return account
    }
}

/// A request whose token was checked: its account, the account's store and the moment it acts at.
struct SignedInRequest: Sendable {
    let account: AccountProfile
    /// The database as the account sees it.
    let database: any PerAccountStore
    let now: Date

    /// Runs `body` with the account's scoped store, its clock (404 while it has no zone; from the
    /// profile the token's check read, where the store keeps clocks there) and the moment the request acts at.
    func run<T: Sendable>(_ body: (AccountScope) async throws -> T) async throws -> T {
        try await body(
            AccountScope(
                account: account, database: database, clock: try await database.clock(signedIn: account), now: now))
    }
}
