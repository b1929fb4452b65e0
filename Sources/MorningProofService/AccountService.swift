import Digest
import Foundation
import MorningProofCore
import MorningProofStore

/// Hashes and checks passwords. Slow on purpose, so a server runs it off its event loop.
public protocol PasswordHasher: Sendable {
    func hash(_ password: String) async throws -> String
    func verify(_ password: String, hash: String) async throws -> Bool
}

/// Accounts: sign-up, sign-in (limited after failures) and the profile that sets the clock.
public struct AccountService: Sendable {
    /// How long a token from sign-up or sign-in lasts.
    public static let sessionLifetime: TimeInterval = 30 * 86_400

    public let database: any AccountStore
    public let tokens: TokenService
    let hasher: any PasswordHasher
    let throttle: LoginThrottle

    public init(database: any AccountStore, hasher: any PasswordHasher, throttle: LoginThrottle = LoginThrottle()) {
        self.database = database
        self.tokens = TokenService(database: database)
        self.hasher = hasher
        self.throttle = throttle
    }

    /// Creates an account and signs it in.
    public func signUp(email: String, password: String, timeZone: String?, now: Date) async throws
        -> (token: IssuedToken, profile: AccountProfile)
    {
        if let problem = AccountRules.emailProblem(email) { throw MorningProofError.usage(problem) }
        if let problem = AccountRules.passwordProblem(password) { throw MorningProofError.usage(problem) }
        let zone = try timeZone.map(SettingValues.timeZone)
        let hash = try await hasher.hash(Self.prepared(password))
        guard let profile = try await database.createAccount(email: email, passwordHash: hash, timeZone: zone, at: now)
        else {
            throw ServiceError(.conflict, code: "email_taken", "an account with the email \(email) exists already")
        }
        let token = try await tokens.issue(
            accountID: profile.id, name: "sign-up", now: now, lifetime: Self.sessionLifetime)
        return (token, profile)
    }

    /// Signs in with an email and password; refused for a while after too many failures.
    /// - Parameter address: where the attempt comes from (the client's IP address).
    public func logIn(email: String, password: String, address: String, now: Date) async throws -> IssuedToken {
        // No account has an email with a NUL, and PostgreSQL's text cannot hold one: a wrong
        // sign-in, known without a query that the database would refuse.
        guard !email.unicodeScalars.contains("\0") else {
            _ = try await hasher.hash(Self.prepared(password))
            throw Self.wrongCredentials
        }
        if let wait = try await throttle.retryAfter(email: email, address: address, now: now) {
            throw ServiceError(
                .tooManyRequests(retryAfter: wait), code: "too_many_attempts",
                "too many failed sign-ins; try again in \(wait) seconds")
        }
        let credentials = try await database.credentials(email: email)
        var matches = false
        if let credentials {
            matches = try await hasher.verify(Self.prepared(password), hash: credentials.passwordHash)
        } else {
            // An unknown email costs as much time as a wrong password, so timing tells nothing.
            _ = try await hasher.hash(Self.prepared(password))
        }
        guard let credentials, matches else {
            try await throttle.recordFailure(email: email, address: address, now: now)
            throw Self.wrongCredentials
        }
        try await throttle.recordSuccess(email: email)
        return try await tokens.issue(
            accountID: credentials.id, name: "sign-in", now: now, lifetime: Self.sessionLifetime)
    }

    static let wrongCredentials = ServiceError(.unauthorized, code: "wrong_credentials", "wrong email or password")

    /// What bcrypt hashes: the password's SHA-256 in hex, because bcrypt reads only the first 72
    /// bytes and stops at a zero byte, and a password may have either.
    static func prepared(_ password: String) -> String { SHA256Digest.hex(Data(password.utf8)) }

    /// Changes what is given of the zone (an IANA name), day start (`HH:MM`) and week start (a weekday).
    public func changeProfile(
        of account: AccountProfile, timeZone: String?, dayStart: String?, weekStart: String?, now: Date
    ) async throws -> AccountProfile {
        let zone = try timeZone.map(SettingValues.timeZone)
        let start = try dayStart.map(SettingValues.dayStart)
        let week = try weekStart.map(SettingValues.weekStartNumber)
        guard
            let profile = try await database.changeProfile(
                of: account.id, timeZone: zone, dayStart: start, weekStart: week, at: now)
        else { throw Self.noAccount }
        return profile
    }

    static let noAccount = ServiceError(.unauthorized, code: "unauthorized", "the account no longer exists")
}
