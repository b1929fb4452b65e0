import Foundation
import MorningProofCore

/// What the account, token and daily-update use cases read and write: accounts with their clocks
/// here, and through the protocols it refines, API tokens by their SHA-256 (`TokenStore`) and the
/// seed API's daily updates (`DailyUpdateStore`). Served by SQLite (`AppDatabase`) and by PostgreSQL
/// (`PostgresStore`); the stores only read and write, the rules stay in Core and in the services, so
/// both engines behave alike.
public protocol AccountStore: TokenStore, DailyUpdateStore, AccountCareStore, PasskeyStore, AccountDeletionStore {
    /// Creates an account; nil when the email is taken (in any case).
    func createAccount(email: String, passwordHash: String, timeZone: String?, at instant: Date) async throws
        -> AccountProfile?
    /// The account id and password hash behind an email (in any case), for signing in.
    func credentials(email: String) async throws -> (id: Int64, passwordHash: String)?
    /// The account with this email (in any case).
    func accountID(email: String) async throws -> Int64?
    func profile(of id: Int64) async throws -> AccountProfile?
    /// Changes what is given of an account's zone, day start and week start; a real change of the
    /// clock is recorded with its instant (travel). Nil when there is no such account.
    func changeProfile(of id: Int64, timeZone: String?, dayStart: Int?, weekStart: Int?, at instant: Date)
        async throws -> AccountProfile?
}
