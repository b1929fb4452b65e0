import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A person's password: changed with the current one, or replaced with a one-time reset code that
/// the operator (`account reset-password`) or an email (`POST /api/auth/forgot`) hands over.
extension AccountService {
    /// How long a reset code sets a new password.
    public static let resetCodeLifetime: TimeInterval = 60 * 60

    /// Changes the account's password after checking the current one, which counts like a
    /// sign-in (`LoginThrottle`: a stolen session cannot guess it faster than a sign-in could).
    /// With `signOutOthers` every token of the account but `presented` is revoked.
    public func changePassword(
        of account: AccountProfile, current: String, new: String, signOutOthers: Bool, presented: PresentedToken,
        address: String, now: Date
    ) async throws {
        if let problem = AccountRules.newPasswordProblem(new, email: account.email) {
            throw MorningProofError(.usage, code: "weak_password", problem)
        }
        try await checkPassword(of: account, current, address: address, now: now)
        guard let hash = presented.hash else { throw TokenService.invalidToken }
        let newHash = try await hasher.hash(Self.prepared(new))
        guard
            try await database.changePassword(
                of: account.id, to: newHash, signOut: signOutOthers ? .allBut(tokenHash: hash) : .none)
        else { throw Self.noAccount }
    }

    /// Checks the account's own password, counted like a sign-in: 403 `wrong_password` when it is
    /// not (not 401, which would say the session had ended), 429 past the sign-in limits.
    public func checkPassword(of account: AccountProfile, _ password: String, address: String, now: Date)
        async throws
    {
        let reservation = try await throttle.reserveSignIn(
            email: account.email ?? "account \(account.id)", address: address, now: now)
        let matches: Bool
        do {
            guard let stored = try await database.passwordHash(of: account.id) else {
                try? await throttle.giveBack(reservation)
                throw MorningProofError(
                    .conflict, code: "no_password",
                    "this account has no password yet; the operator gives it one with `morningproof-server account set-login`"
                )
            }
            matches = try await hasher.verify(Self.prepared(password), hash: stored)
        } catch let error as MorningProofError where error.code == "no_password" {
            throw error
        } catch {
            try? await throttle.giveBack(reservation)
            throw error
        }
        guard matches else { throw Self.wrongPassword }
        try await throttle.signedIn(reservation)
    }

    static let wrongPassword = MorningProofError(.forbidden, code: "wrong_password", "the current password is wrong")

    /// A new one-time reset code for the account with `email` (404 `no_such_account` without one):
    /// only its SHA-256 is stored, and it sets a new password once within `resetCodeLifetime`.
    public func issueResetCode(email: String, now: Date) async throws -> String {
        guard let id = try await database.accountID(email: email) else {
            throw MorningProofError(.notFound, code: "no_such_account", "no account has the email \(email)")
        }
        return try await issueResetCode(accountID: id, now: now)
    }

    func issueResetCode(accountID: Int64, now: Date) async throws -> String {
        let code = ResetCode.generate()
        try await database.storeResetCode(
            accountID: accountID, codeHash: ResetCode.hash(code), createdAt: now,
            expiresAt: now.addingTimeInterval(Self.resetCodeLifetime))
        return code
    }

    /// Sets a new password with a reset code, which is used up; every token of the account is
    /// revoked. 404 `invalid_reset_code` for a code unknown, used or expired.
    public func resetPassword(code: String, new: String, now: Date) async throws {
        guard ResetCode.looksValid(code),
            let id = try await database.resetCodeAccount(codeHash: ResetCode.hash(code), at: now)
        else { throw Self.invalidResetCode }
        let email = try await database.profile(of: id)?.email
        if let problem = AccountRules.newPasswordProblem(new, email: email) {
            throw MorningProofError(.usage, code: "weak_password", problem)
        }
        let newHash = try await hasher.hash(Self.prepared(new))
        guard try await database.redeemResetCode(codeHash: ResetCode.hash(code), at: now, passwordHash: newHash) != nil
        else { throw Self.invalidResetCode }
    }

    static let invalidResetCode = MorningProofError(
        .notFound, code: "invalid_reset_code",
        "this reset link is not valid (unknown, used or older than an hour); ask for a new one")

    /// Gives an account (the owner's, for the CLI's person) an email and password to sign in with
    /// (`account set-login`): 409 `email_taken` when another account has the email.
    public func setLogin(accountID: Int64, email: String, password: String) async throws {
        if let problem = AccountRules.emailProblem(email) { throw MorningProofError(.usage, problem) }
        if let problem = AccountRules.newPasswordProblem(password, email: email) {
            throw MorningProofError(.usage, code: "weak_password", problem)
        }
        guard try await database.profile(of: accountID) != nil else { throw Self.noAccount }
        let hash = try await hasher.hash(Self.prepared(password))
        guard try await database.setLogin(accountID: accountID, email: email, passwordHash: hash) else {
            throw MorningProofError(.conflict, code: "email_taken", "another account has the email \(email)")
        }
    }
}

/// A one-time reset code: 32 random bytes in URL-safe base64, of which only a SHA-256 is stored.
public enum ResetCode {
    /// A new code.
    public static func generate() -> String {
        String(TokenSecret.generate().dropFirst(TokenSecret.prefix.count))
    }

    /// The SHA-256 that is stored and looked up.
    public static func hash(_ code: String) -> String { TokenSecret.hash("reset:" + code) }

    /// The shape `generate` makes, checked before any lookup.
    static func looksValid(_ code: String) -> Bool {
        code.utf8.count == 43
            && code.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            }
    }
}
