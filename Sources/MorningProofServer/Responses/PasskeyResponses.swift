import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A passkey as its account sees it (no key material).
struct PasskeyJSON: Encodable, Sendable {
    let id: Int64
    let name: String
    let createdAt: String
    /// The last sign-in with it; absent before the first.
    let lastUsedAt: String?

    init(_ passkey: StoredPasskey) {
        id = passkey.id
        name = passkey.name
        createdAt = ISOInstant.format(passkey.createdAt, in: TimeZone(identifier: "UTC")!)
        lastUsedAt = passkey.lastUsedAt.map { ISOInstant.format($0, in: TimeZone(identifier: "UTC")!) }
    }
}
