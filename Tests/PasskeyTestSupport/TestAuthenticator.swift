import Crypto
import Foundation
import MorningProofCore
import WebAuthn

/// CBOR as an authenticator writes it (definite lengths, shortest arguments), for the tests.
public enum CBORWriter {
    public static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let number): return head(0, number)
        case .negative(let number): return head(1, UInt64(-1 - number))
        case .bytes(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries):
            return head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        }
    }

    public static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25] + bigEndian(argument, 2)
        case 0x1_0000...0xFFFF_FFFF: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    public static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }
}

/// A passkey authenticator in the test: a P-256 key that answers registrations and sign-ins the
/// way a browser and its authenticator do, with knobs to break each part.
public struct TestAuthenticator {
    public var key = P256.Signing.PrivateKey()
    public var credentialID: [UInt8] = Array((0..<16).map { UInt8($0 * 7 + 1) })
    public var signCount: UInt32 = 0
    public var flags: UInt8 = 0x05  // UP and UV

    public static let rp = RelyingParty(id: "habits.example", origin: "https://habits.example")

    public init() {}

    public var coseKey: [UInt8] {
        let point = Array(key.publicKey.x963Representation)
        return CBORWriter.encode(
            .map([
                .unsigned(1): .unsigned(2), .unsigned(3): .negative(-7), .negative(-1): .unsigned(1),
                .negative(-2): .bytes(Array(point[1..<33])), .negative(-3): .bytes(Array(point[33..<65])),
            ]))
    }

    public static func clientData(
        type: String, challenge: [UInt8], origin: String = "https://habits.example", crossOrigin: Bool = false
    ) -> [UInt8] {
        Array(
            #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":\#(crossOrigin)}"#
                .utf8)
    }

    public func authenticatorData(rpID: String = "habits.example", attested: Bool) -> [UInt8] {
        var data = Array(SHA256.hash(data: Array(rpID.utf8)))
        data.append(flags | (attested ? 0x40 : 0))
        data += CBORWriter.bigEndian(UInt64(signCount), 4)
        if attested {
            data += [UInt8](repeating: 0, count: 16)
            data += CBORWriter.bigEndian(UInt64(credentialID.count), 2) + credentialID + coseKey
        }
        return data
    }

    public func attestationObject(
        format: String = "none", statement: [CBORValue: CBORValue] = [:], rpID: String = "habits.example"
    ) -> [UInt8] {
        CBORWriter.encode(
            .map([
                .text("fmt"): .text(format), .text("attStmt"): .map(statement),
                .text("authData"): .bytes(authenticatorData(rpID: rpID, attested: true)),
            ]))
    }

    /// A sign-in's authenticator data and signature over it and the client data's SHA-256.
    public func assertion(clientDataJSON: [UInt8], rpID: String = "habits.example") throws -> (
        authenticatorData: [UInt8], signature: [UInt8]
    ) {
        let data = authenticatorData(rpID: rpID, attested: false)
        let signature = try key.signature(for: data + Array(SHA256.hash(data: clientDataJSON)))
        return (data, Array(signature.derRepresentation))
    }
}
