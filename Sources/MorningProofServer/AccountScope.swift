import Foundation
import MorningProofCore
import MorningProofStoreContract

/// One request's account: its rows, its clock and the moment the request acts at. Routes build the
/// use cases they call from it.
struct AccountScope: Sendable {
    let account: AccountProfile
    /// The database as the account sees it: another account's rows are not found.
    let database: any PerAccountStore
    /// The account's zone and day start: the server, never the client, decides what today is.
    let clock: DayClock
    let now: Date
}
