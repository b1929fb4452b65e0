import Foundation
import MorningProofCore

/// What an account's owner and the server's operator do to an account beside signing in: change
/// or reset its password, see and end its sessions, disable it, give the owner a login, list
/// accounts, delete one. `AccountStore` refines it, so that both engines serve it.
public protocol AccountCareStore: Sendable {
    /// The account's password hash; nil when it has none (the owner before `account set-login`) or no such account.
    func passwordHash(of accountID: Int64) async throws -> String?
    /// Replaces the password hash and signs out the tokens `signOut` names, in one transaction;
    /// false when there is no such account.
    func changePassword(of accountID: Int64, to passwordHash: String, signOut: TokenSignOut) async throws -> Bool
    /// Revokes the tokens `signOut` names among the account's; how many went.
    func signOut(accountID: Int64, _ signOut: TokenSignOut) async throws -> Int

    /// Records the device a token was issued to (read from its User-Agent).
    func recordDevice(tokenID: Int64, device: String) async throws
    /// Records that the token with this SHA-256 was used in the hour starting at `hour`, unless a
    /// later hour is stored.
    func recordUse(tokenHash: String, hour: Date) async throws
    /// The devices and last uses of an account's tokens, by token id; `current` marks the token
    /// with this SHA-256.
    func tokenUses(accountID: Int64, currentHash: String?) async throws -> [Int64: TokenUse]

    /// Stores a reset code by its SHA-256; the account's expired codes go at the same time.
    func storeResetCode(accountID: Int64, codeHash: String, createdAt: Date, expiresAt: Date) async throws
    /// The account of an unexpired reset code, or nil.
    func resetCodeAccount(codeHash: String, at now: Date) async throws -> Int64?
    /// Uses a reset code once, in one transaction: deletes it (and the account's other codes),
    /// sets the password hash and revokes every token of the account. The account's id, or nil
    /// when the code is unknown, used or expired.
    func redeemResetCode(codeHash: String, at now: Date, passwordHash: String) async throws -> Int64?

    /// Whether the account is disabled (nil: no such account).
    func isDisabled(accountID: Int64) async throws -> Bool?
    /// Whether the token with this SHA-256 belongs to a disabled account (unexpired, any scope).
    func isOfDisabledAccount(tokenHash: String, at now: Date) async throws -> Bool
    /// Disables or enables an account (its data and tokens kept); false when there is no such account.
    func setDisabled(accountID: Int64, _ disabled: Bool, at instant: Date) async throws -> Bool
    /// Gives an account an email and password hash; false when another account has the email.
    func setLogin(accountID: Int64, email: String, passwordHash: String) async throws -> Bool
    /// Every account, oldest first, with what an operator needs to tell them apart.
    func accountSummaries() async throws -> [AccountSummary]
}

/// Which of an account's tokens a password change or reset revokes.
public enum TokenSignOut: Sendable, Equatable {
    /// None.
    case none
    /// Every token but the one with this SHA-256 (the session that asked).
    case allBut(tokenHash: String)
    /// Every one.
    case all
}

/// Where and when a token was last seen.
public struct TokenUse: Sendable, Equatable {
    /// "Safari on iPhone"; nil for a token made by a script or before devices were recorded.
    public var device: String?
    /// The start of the last hour in which it was used; nil when it never was.
    public var lastUsedAt: Date?
    /// The token the request presents.
    public var current: Bool

    public init(device: String?, lastUsedAt: Date?, current: Bool) {
        self.device = device
        self.lastUsedAt = lastUsedAt
        self.current = current
    }
}

/// One account as `morningproof-server account list` shows it.
public struct AccountSummary: Sendable, Equatable, Codable {
    public var id: Int64
    public var email: String?
    public var createdAt: Date
    /// The latest hour any of its tokens was used; nil when none was.
    public var lastSeenAt: Date?
    public var habits: Int
    public var disabled: Bool

    public init(id: Int64, email: String?, createdAt: Date, lastSeenAt: Date?, habits: Int, disabled: Bool) {
        self.id = id
        self.email = email
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.habits = habits
        self.disabled = disabled
    }
}
