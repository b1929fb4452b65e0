import Foundation
import MorningProofCore
import MorningProofStoreContract

/// What the server's operator does to accounts (`morningproof-server account ...`).
extension AccountService {
    /// Every account, oldest first.
    public func accountList() async throws -> [AccountSummary] {
        try await database.accountSummaries()
    }

    /// Disables or enables the account with `email` (404 `no_such_account` without one): a disabled
    /// account's tokens and sign-ins get 403 `account_disabled`; its data and tokens are kept.
    public func setDisabled(email: String, _ disabled: Bool, now: Date) async throws {
        guard let id = try await database.accountID(email: email),
            try await database.setDisabled(accountID: id, disabled, at: now)
        else { throw MorningProofError(.notFound, code: "no_such_account", "no account has the email \(email)") }
    }
}
