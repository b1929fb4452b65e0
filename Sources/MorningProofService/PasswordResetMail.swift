import Foundation
import MorningProofCore
import MorningProofStoreContract

/// What sends a password-reset link by email (the server's SMTP client, `serve --smtp-url`).
public protocol ResetMailSender: Sendable {
    /// Sends `link` to `email`; throws when the mail server refuses it or cannot be reached.
    func sendResetLink(to email: String, link: String) async throws
}

/// "Forgot password?": a reset link by email, with an answer that tells nothing about the email.
extension AccountService {
    /// How many forgotten-password requests are taken in an hour from one address (more: 429)
    /// and for one email (more are answered alike, and send nothing: a mailbox is not flooded).
    public static let forgotPerAddress = 10
    public static let forgotPerEmail = 3

    /// Takes a forgotten-password request for `email`: counted per address (429 past
    /// `forgotPerAddress`) and per email; then, when the email has an account and is under its own
    /// limit, a reset code is issued and `<publicURL>/#reset=CODE` mailed by `send` (run by the caller
    /// after answering, so that the answer's time does not depend on the account either).
    /// Returns the work that mails the link, or nil when nothing is to be sent.
    public func forgotPassword(
        email: String, address: String, now: Date, publicURL: String, mailer: any ResetMailSender,
        onFailure: @escaping @Sendable (Error) -> Void = { _ in }
    ) async throws -> (@Sendable () async -> Void)? {
        let person = ClientAddress.person(of: address)
        let window: TimeInterval = 60 * 60
        try await reserveForgot(["forgot address \(person)"], limit: Self.forgotPerAddress, now: now, window: window)
        guard AccountRules.emailProblem(email) == nil, !email.unicodeScalars.contains("\0") else { return nil }
        do {
            try await reserveForgot(
                ["forgot email \(email.lowercased())"], limit: Self.forgotPerEmail, now: now, window: window)
        } catch let error as MorningProofError where error.code == "too_many_attempts" {
            return nil
        }
        let service = self
        return {
            do {
                // No mail for an unknown email, nor for a disabled account (its sign-in is refused anyway).
                guard let id = try await service.database.accountID(email: email),
                    try await service.database.isDisabled(accountID: id) == false
                else { return }
                let code = try await service.issueResetCode(accountID: id, now: now)
                try await mailer.sendResetLink(to: email, link: "\(publicURL)/#reset=\(code)")
            } catch {
                onFailure(error)
            }
        }
    }

    private func reserveForgot(_ keys: [String], limit: Int, now: Date, window: TimeInterval) async throws {
        let since = now.addingTimeInterval(-max(window, throttle.limits.window, throttle.limits.signUpWindow))
        let wait = try await throttle.attempts.reserveSignInAttempt(
            UUID().uuidString, keys: keys, at: now, since: since
        ) { recent in
            SignInLimits.retryAfter(
                Dictionary(uniqueKeysWithValues: keys.map { ($0, (limit, window)) }), recent: recent, now: now)
        }
        if let wait {
            throw MorningProofError(
                .tooManyRequests(retryAfter: wait), code: "too_many_attempts",
                "too many password resets asked; try again in \(wait) seconds")
        }
    }
}
