import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// A token as its account sees it; `token` (the secret) only in the answer that created it.
struct TokenJSON: Encodable, Sendable {
    let id: Int64
    let name: String
    let createdAt: String
    let expiresAt: String?
    /// "full", or "metrics" for a token that only posts metrics.
    let scope: String
    let token: String?
    /// Where a sign-in came from ("Safari on iPhone"), its last hour of use, and whether it is the
    /// token asking (issue 41's sessions); absent for a token just made.
    var device: String? = nil
    var lastUsedAt: String? = nil
    var current: Bool? = nil

    init(_ record: APIToken) { self.init(record, token: nil) }

    init(_ session: TokenSession) {
        self.init(session.token, token: nil)
        device = session.use.device
        lastUsedAt = session.use.lastUsedAt.map { ISOInstant.format($0, in: TimeZone(identifier: "UTC")!) }
        current = session.use.current
    }

    init(_ record: APIToken, token: String?) {
        id = record.id
        name = record.name
        createdAt = ISOInstant.format(record.createdAt, in: TimeZone(identifier: "UTC")!)
        expiresAt = record.expiresAt.map { ISOInstant.format($0, in: TimeZone(identifier: "UTC")!) }
        scope = record.scope.rawValue
        self.token = token
    }
}
