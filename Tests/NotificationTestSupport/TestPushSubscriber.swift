import MorningProofCore
import Crypto
import Foundation
import MorningProofStoreContract
import NotificationDelivery

/// A browser's side of Web Push: its P-256 key pair and 16-byte auth secret, the subscription it
/// hands the server, and the decryption of what the push service passes on.
public struct TestPushSubscriber: Sendable {
    public let privateKey: P256.KeyAgreement.PrivateKey
    public let authSecret: Data

    /// A new key pair and a random secret.
    public init() {
        privateKey = P256.KeyAgreement.PrivateKey()
        authSecret = WebPushEncryption.randomSalt()
    }

    /// `PushSubscription.toJSON()` for `endpoint`.
    public func subscription(endpoint: String) -> PushSubscription {
        PushSubscription(
            endpoint: endpoint, p256dh: Base64URL.encode(privateKey.publicKey.x963Representation),
            auth: Base64URL.encode(authSecret))
    }

    /// The plaintext of an aes128gcm body.
    public func decrypt(_ body: Data) throws -> Data {
        try WebPushEncryption.decrypt(body, receiverKey: privateKey, authSecret: authSecret)
    }

    /// The `PushMessage` inside an aes128gcm body.
    public func message(_ body: Data) throws -> PushMessage {
        try JSONDecoder().decode(PushMessage.self, from: decrypt(body))
    }
}
