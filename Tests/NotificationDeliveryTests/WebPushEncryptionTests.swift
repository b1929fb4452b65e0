import MorningProofCore
import Crypto
import Foundation
import Testing

@testable import NotificationDelivery

@Suite struct WebPushEncryptionTests {
    /// RFC 8291 section 5 and appendix A.
    enum Vector {
        static let plaintext = "When I grow up, I want to be a watermelon"
        static let receiverPublic =
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
        static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
        static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
        static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
        static let body =
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    }

    @Test func reproducesTheRFC8291ExampleByteForByte() throws {
        let receiver = try WebPushEncryption.ReceiverKeys(p256dh: Vector.receiverPublic, auth: Vector.authSecret)
        let sender = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: #require(Base64URL.decode(Vector.senderPrivate)))
        let body = try WebPushEncryption.encrypt(
            Data(Vector.plaintext.utf8), for: receiver, senderKey: sender, salt: #require(Base64URL.decode(Vector.salt))
        )
        #expect(Base64URL.encode(body) == Vector.body)
    }

    @Test func decryptsTheRFC8291Example() throws {
        let key = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: #require(Base64URL.decode(Vector.receiverPrivate)))
        let plaintext = try WebPushEncryption.decrypt(
            #require(Base64URL.decode(Vector.body)), receiverKey: key,
            authSecret: #require(Base64URL.decode(Vector.authSecret)))
        #expect(String(decoding: plaintext, as: UTF8.self) == Vector.plaintext)
    }

    @Test func roundTripsWithRandomKeysAndSalt() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let secret = WebPushEncryption.randomSalt()
        let receiver = try WebPushEncryption.ReceiverKeys(p256dh: browser.publicKey.x963Representation, auth: secret)
        for message in ["", "é", String(repeating: "x", count: WebPushEncryption.largestMessage)] {
            let first = try WebPushEncryption.encrypt(Data(message.utf8), for: receiver)
            let second = try WebPushEncryption.encrypt(Data(message.utf8), for: receiver)
            #expect(first != second)
            #expect(first.count == 86 + Data(message.utf8).count + 1 + 16)
            #expect(first[16..<20] == Data([0, 0, 0x10, 0]))
            let back = try WebPushEncryption.decrypt(first, receiverKey: browser, authSecret: secret)
            #expect(String(decoding: back, as: UTF8.self) == message)
        }
        #expect(throws: WebPushEncryption.Problem.self) {
            try WebPushEncryption.decrypt(
                WebPushEncryption.encrypt(Data("hi".utf8), for: receiver), receiverKey: browser,
                authSecret: WebPushEncryption.randomSalt())
        }
    }

    @Test func refusesKeysThatAreNotABrowsersKeys() {
        let point = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        let compressed = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.compressedRepresentation)
        let offCurve = Base64URL.encode(Data([4] + [UInt8](repeating: 7, count: 64)))
        let auth = Base64URL.encode(Data(repeating: 1, count: 16))
        #expect(throws: WebPushEncryption.Problem.badReceiverKey) {
            try WebPushEncryption.ReceiverKeys(p256dh: compressed, auth: auth)
        }
        #expect(throws: WebPushEncryption.Problem.badReceiverKey) {
            try WebPushEncryption.ReceiverKeys(p256dh: offCurve, auth: auth)
        }
        #expect(throws: WebPushEncryption.Problem.badReceiverKey) {
            try WebPushEncryption.ReceiverKeys(p256dh: "not+base64url", auth: auth)
        }
        #expect(throws: WebPushEncryption.Problem.badAuthSecret) {
            try WebPushEncryption.ReceiverKeys(p256dh: point, auth: Base64URL.encode(Data(repeating: 1, count: 15)))
        }
        #expect(throws: WebPushEncryption.Problem.messageTooLong(WebPushEncryption.largestMessage + 1)) {
            try WebPushEncryption.encrypt(
                Data(count: WebPushEncryption.largestMessage + 1),
                for: WebPushEncryption.ReceiverKeys(p256dh: point, auth: auth))
        }
    }
}
