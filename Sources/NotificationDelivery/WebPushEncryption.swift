import MorningProofCore
import Crypto
import Foundation

/// Web Push payload encryption (RFC 8291): the `aes128gcm` content coding of RFC 8188, one record,
/// keyed by an ephemeral P-256 ECDH with the browser's key and its authentication secret.
public enum WebPushEncryption {
    /// The record size written in the header; one record holds the whole message.
    public static let recordSize = 4096
    /// The largest message one record holds: the record less the padding delimiter and the tag.
    public static let largestMessage = recordSize - 1 - 16

    /// Why a body could not be made or read.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// The subscription's `p256dh` is not a 65-byte uncompressed P-256 point.
        case badReceiverKey
        /// The subscription's `auth` is not 16 bytes.
        case badAuthSecret
        /// The message is longer than one record holds.
        case messageTooLong(Int)
        /// A salt that is not 16 bytes (only a test gives one).
        case badSalt
        /// The body is no single aes128gcm record for this key and secret.
        case undecryptable(String)

        public var description: String {
            switch self {
            case .badReceiverKey: "the subscription's p256dh key is not a 65-byte uncompressed P-256 point"
            case .badAuthSecret: "the subscription's auth secret is not 16 bytes of base64url"
            case .badSalt: "the salt is not 16 bytes"
            case .messageTooLong(let count):
                "the message is \(count) bytes, more than one record holds (\(largestMessage))"
            case .undecryptable(let why): "the body cannot be decrypted: \(why)"
            }
        }
    }

    /// The browser's keys of a subscription, checked: a P-256 public key and a 16-byte secret.
    public struct ReceiverKeys: Sendable {
        public let publicKey: P256.KeyAgreement.PublicKey
        public let authSecret: Data

        /// Checks the raw bytes: `p256dh` 65 bytes starting 0x04 and on the curve, `auth` 16 bytes.
        public init(p256dh: Data, auth: Data) throws(Problem) {
            guard p256dh.count == 65, p256dh.first == 0x04,
                let key = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)
            else { throw .badReceiverKey }
            guard auth.count == 16 else { throw .badAuthSecret }
            publicKey = key
            authSecret = auth
        }

        /// Checks a subscription's base64url `p256dh` and `auth`.
        public init(p256dh: String, auth: String) throws(Problem) {
            guard let key = Base64URL.decode(p256dh) else { throw .badReceiverKey }
            guard let secret = Base64URL.decode(auth) else { throw .badAuthSecret }
            try self.init(p256dh: key, auth: secret)
        }
    }

    /// The aes128gcm body of `message` for `receiver`: salt(16) | rs(4) | idlen(1) | keyid(65) |
    /// ciphertext. The salt and the sender's ephemeral key are random unless a test gives them.
    public static func encrypt(
        _ message: Data, for receiver: ReceiverKeys,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: Data = randomSalt()
    ) throws(Problem) -> Data {
        guard message.count <= largestMessage else { throw .messageTooLong(message.count) }
        guard salt.count == 16 else { throw .badSalt }
        let senderPublic = senderKey.publicKey.x963Representation
        let keys: RecordKeys
        do {
            let shared = try senderKey.sharedSecretFromKeyAgreement(with: receiver.publicKey)
            keys = try RecordKeys(
                shared: shared, authSecret: receiver.authSecret, receiverPublic: receiver.publicKey.x963Representation,
                senderPublic: senderPublic, salt: salt)
        } catch {
            throw .badReceiverKey
        }
        var padded = message
        padded.append(0x02)
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(padded, using: keys.contentKey, nonce: keys.nonce)
        } catch {
            throw .undecryptable("AES-GCM refused the record: \(error)")
        }
        var body = Data(capacity: 86 + padded.count + 16)
        body.append(salt)
        body.append(contentsOf: withUnsafeBytes(of: UInt32(recordSize).bigEndian) { Array($0) })
        body.append(UInt8(senderPublic.count))
        body.append(senderPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }

    /// The message inside an aes128gcm body, read with the browser's private key and auth secret.
    public static func decrypt(
        _ body: Data, receiverKey: P256.KeyAgreement.PrivateKey, authSecret: Data
    ) throws(Problem) -> Data {
        let bytes = [UInt8](body)
        guard bytes.count >= 21 else { throw .undecryptable("shorter than the header") }
        let salt = Data(bytes[0..<16])
        let recordSize = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let idLength = Int(bytes[20])
        let headerLength = 21 + idLength
        guard bytes.count >= headerLength + 17 else { throw .undecryptable("no record after the header") }
        guard bytes.count - headerLength <= recordSize else { throw .undecryptable("more than one record") }
        let sender: P256.KeyAgreement.PublicKey
        do {
            sender = try P256.KeyAgreement.PublicKey(x963Representation: bytes[21..<headerLength])
        } catch {
            throw .undecryptable("the key id is no P-256 public key")
        }
        let padded: Data
        do {
            let shared = try receiverKey.sharedSecretFromKeyAgreement(with: sender)
            let keys = try RecordKeys(
                shared: shared, authSecret: authSecret, receiverPublic: receiverKey.publicKey.x963Representation,
                senderPublic: sender.x963Representation, salt: salt)
            let record = bytes[headerLength...]
            let box = try AES.GCM.SealedBox(
                nonce: keys.nonce, ciphertext: record.dropLast(16), tag: record.suffix(16))
            padded = try AES.GCM.open(box, using: keys.contentKey)
        } catch {
            throw .undecryptable("authentication failed (wrong key or secret, or altered)")
        }
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 0x02 else {
            throw .undecryptable("no last-record padding delimiter (0x02)")
        }
        return padded[padded.startIndex..<delimiter]
    }

    /// 16 random bytes.
    public static func randomSalt() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// The content encryption key and nonce of one record (RFC 8291 section 3.4, RFC 8188 section 2.2).
private struct RecordKeys {
    let contentKey: SymmetricKey
    let nonce: AES.GCM.Nonce

    init(shared: SharedSecret, authSecret: Data, receiverPublic: Data, senderPublic: Data, salt: Data) throws {
        var keyInfo = Data("WebPush: info".utf8)
        keyInfo.append(0)
        keyInfo.append(receiverPublic)
        keyInfo.append(senderPublic)
        let inputKey = shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: authSecret, sharedInfo: keyInfo, outputByteCount: 32)
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: inputKey, salt: salt)
        contentKey = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonceKey = HKDF<SHA256>.expand(
            pseudoRandomKey: prk, info: Data("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
        nonce = try nonceKey.withUnsafeBytes { bytes in try AES.GCM.Nonce(data: Data(bytes)) }
    }
}
