import Foundation
import MorningProofCore
import MorningProofStoreContract

/// Deleting an account (issue 41): by the person with their password, or by the server's operator.
/// Everything the account owns goes in one transaction; its email can sign up again.
extension AccountService {
    /// Deletes the signed-in account after checking its password, which counts like a sign-in
    /// (403 `wrong_password`, 429 past the limits). The owner account (the CLI's data) is refused
    /// with 403 `owner_account` before any password is checked.
    public func deleteAccount(of account: AccountProfile, password: String, address: String, now: Date)
        async throws
    {
        try Self.refuseOwner(account.id)
        try await checkPassword(of: account, password, address: address, now: now)
        guard try await database.deleteAccount(account.id) else { throw Self.noAccount }
    }

    /// Deletes the account with `email` for the operator (`account delete`): 404 `no_such_account`
    /// without one; the owner account is refused as over HTTP. The deleted account's id.
    @discardableResult
    public func deleteAccount(email: String) async throws -> Int64 {
        guard let id = try await database.accountID(email: email) else {
            throw MorningProofError(.notFound, code: "no_such_account", "no account has the email \(email)")
        }
        try Self.refuseOwner(id)
        guard try await database.deleteAccount(id) else {
            throw MorningProofError(.notFound, code: "no_such_account", "no account has the email \(email)")
        }
        return id
    }

    static func refuseOwner(_ accountID: Int64) throws {
        guard accountID != AccountProfile.ownerID else {
            throw MorningProofError(
                .forbidden, code: "owner_account",
                "the owner account (account 1, the CLI's data) cannot be deleted; delete its database file instead")
        }
    }
}
