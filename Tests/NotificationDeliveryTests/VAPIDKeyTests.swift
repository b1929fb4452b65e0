import MorningProofCore
import Foundation
import Testing

@testable import NotificationDelivery

@Suite struct VAPIDKeyTests {
    @Test func aStoredKeyGivesTheSamePublicKey() throws {
        let identity = VAPIDKey.newIdentity(contact: "mailto:ops@example.com")
        #expect(identity.privateKey.count == 32)
        let first = try #require(VAPIDKey(privateKey: identity.privateKey))
        let again = try #require(VAPIDKey(privateKey: identity.privateKey))
        #expect(first.publicKey == again.publicKey)
        #expect(first.publicKey.count == 65 && first.publicKey.first == 0x04)
        #expect(Base64URL.decode(first.publicKeyBase64URL) == first.publicKey)
        #expect(VAPIDKey().publicKey != first.publicKey)
    }

    @Test func bytesThatAreNoKeyAreRefused() {
        #expect(VAPIDKey(privateKey: Data(repeating: 0, count: 32)) == nil)
        #expect(VAPIDKey(privateKey: Data(repeating: 1, count: 31)) == nil)
    }
}
