import Foundation
import MorningProofCore

/// The server's VAPID identity, shared by every process on the database.
public protocol VAPIDIdentityStore: Sendable {
    /// The stored identity; when there is none yet, stores `candidate` and returns it. Of two
    /// processes starting at once, both get the one stored first.
    func vapidIdentity(orStore candidate: VAPIDIdentity) async throws -> VAPIDIdentity
    /// Changes the stored contact (`serve --push-contact`), keeping the key.
    func setVAPIDContact(_ contact: String) async throws
}
