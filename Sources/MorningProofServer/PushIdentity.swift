import Foundation
import Logging
import MorningProofService
import MorningProofStoreContract
import NotificationDelivery

/// The server's Web Push identity, loaded from the database or made there on first start, so that
/// every process on it (each `serve`, `notify --once`) signs alike.
public enum PushIdentity {
    /// The stored identity, or a new key with `contact` (else `PushContact.fallback`) stored first.
    /// A contact given (`serve --push-contact`, checked by `PushContact.checked`) replaces the stored
    /// one; while the stored one is the fallback, a warning says that Apple's push service needs a
    /// real contact.
    public static func load(from store: any VAPIDIdentityStore, contact: String?, logger: Logger) async throws
        -> VAPIDIdentity
    {
        let contact = try contact.map(PushContact.checked)
        var identity = try await store.vapidIdentity(
            orStore: VAPIDKey.newIdentity(contact: contact ?? PushContact.fallback))
        if let contact, identity.contact != contact {
            try await store.setVAPIDContact(contact)
            identity.contact = contact
        }
        if VAPIDKey(privateKey: identity.privateKey) == nil {
            throw StoreError(
                .unavailable, value: "vapidIdentity",
                "the stored Web Push key is not a P-256 key: is the database another program's?")
        }
        if identity.contact == PushContact.fallback {
            logger.warning(
                "Web Push: no contact given (serve --push-contact mailto:ADDRESS); Apple's push service needs a real one")
        }
        return identity
    }
}
