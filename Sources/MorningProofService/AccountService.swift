import Digest
import Foundation
import MorningProofCore
import MorningProofStoreContract

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

    /// Creates an account and signs it in; at most `SignInLimits.signUpsPerAddress` an hour from
    /// one address (`address`: the client's IP address). An email that has an account already gets
    /// exactly what signing in with it gets (`logIn`): the account's token for its password, else
    /// 401 "wrong email or password" counted against the email's sign-in limits. So a sign-up tells
    /// nothing that a sign-in does not, and probing emails through it is limited like guessing.
    /// `userAgent` names the device of the session (`DeviceName`).
    public func signUp(
        email: String, password: String, timeZone: String?, address: String, now: Date, userAgent: String? = nil
    ) async throws -> SignUp {
        if let problem = AccountRules.emailProblem(email) { throw MorningProofError(.usage, problem) }
        if let problem = AccountRules.passwordProblem(password) { throw MorningProofError(.usage, problem) }
        let zone = try timeZone.map(SettingValues.timeZone)
        try await throttle.reserveSignUp(address: address, now: now)
        if try await database.accountID(email: email) != nil {
            let token = try await logIn(
                email: email, password: password, address: address, now: now, userAgent: userAgent)
            guard let profile = try await database.profile(of: token.record.accountID) else { throw Self.noAccount }
            return SignUp(token: token, profile: profile, created: false)
        }
        let hash = try await hasher.hash(Self.prepared(password))
        guard let profile = try await database.createAccount(email: email, passwordHash: hash, timeZone: zone, at: now)
        else {
            // Made by another request meanwhile: what a sign-in with another password gets.
            throw Self.wrongCredentials
        }
        let token = try await tokens.issue(
            accountID: profile.id, name: "sign-up", now: now, lifetime: Self.sessionLifetime)
        await tokens.recordDevice(of: token, userAgent: userAgent)
        return SignUp(token: token, profile: profile, created: true)
    }

    /// What a sign-up gave: a token for the account, and whether it made the account.
    public struct SignUp: Sendable {
        public var token: IssuedToken
        public var profile: AccountProfile
        /// False when the email had an account already and the password was its own.
        public var created: Bool
    }

    /// Signs in with an email and password; refused for a while after too many failures
    /// (`SignInLimits`). The attempt is counted before the password is checked and given back when
    /// it was right, so simultaneous guesses cannot overrun the limit.
    /// - Parameter address: where the attempt comes from (the client's IP address).
    /// - Parameter userAgent: names the device of the session (`DeviceName`); a disabled account is refused (403).
    public func logIn(email: String, password: String, address: String, now: Date, userAgent: String? = nil)
        async throws -> IssuedToken
    {
        // No account has an email with a NUL, and PostgreSQL's text cannot hold one: a wrong
        // sign-in, known without a query that the database would refuse. It is still counted (under
        // the email with U+FFFD for each NUL), or it would be a bcrypt for anyone, without limit.
        let hasNUL = email.unicodeScalars.contains("\0")
        let reservation = try await throttle.reserveSignIn(
            email: hasNUL ? email.replacingOccurrences(of: "\0", with: "\u{FFFD}") : email, address: address, now: now)
        guard !hasNUL else {
            _ = try await hasher.hash(Self.prepared(password))
            throw Self.wrongCredentials
        }
        let credentials: (id: Int64, passwordHash: String)?
        var matches = false
        do {
            credentials = try await database.credentials(email: email)
            if let credentials {
                matches = try await hasher.verify(Self.prepared(password), hash: credentials.passwordHash)
            } else {
                // An unknown email costs as much time as a wrong password, so timing tells nothing.
                _ = try await hasher.hash(Self.prepared(password))
            }
        } catch {
            // The password was never checked (the database or the CPU pool is busy): no failure.
            try? await throttle.giveBack(reservation)
            throw error
        }
        guard let credentials, matches else { throw Self.wrongCredentials }
        try await throttle.signedIn(reservation)
        if try await database.isDisabled(accountID: credentials.id) == true { throw TokenService.accountDisabled }
        let token = try await tokens.issue(
            accountID: credentials.id, name: "sign-in", now: now, lifetime: Self.sessionLifetime)
        await tokens.recordDevice(of: token, userAgent: userAgent)
        return token
    }

    static let wrongCredentials = MorningProofError(.unauthorized, code: "wrong_credentials", "wrong email or password")

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

    static let noAccount = MorningProofError(.unauthorized, code: "unauthorized", "the account no longer exists")
}
