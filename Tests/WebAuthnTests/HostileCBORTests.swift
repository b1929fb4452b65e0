import PasskeyTestSupport
import PropertyBased
import Testing
import WebAuthn

/// Hostile bytes where a passkey's CBOR goes: each is refused with a `WebAuthnError`, never a
/// crash, a hang or an allocation of the size it claims.
@Suite struct HostileCBORTests {
    let rp = TestAuthenticator.rp
    let clientData = TestAuthenticator.clientData(type: "webauthn.create", challenge: Array(repeating: 9, count: 32))

    func refused(_ object: [UInt8], _ what: String) -> WebAuthnError? {
        return #expect(throws: WebAuthnError.self, "\(what)") {
            try rp.register(clientDataJSON: clientData, attestationObject: object)
        }
    }

    @Test func everyTruncationOfARealAttestationObjectIsRefused() {
        let object = TestAuthenticator().attestationObject()
        for length in 0..<object.count { _ = refused(Array(object[..<length]), "cut at \(length)") }
        _ = refused(object + [0], "a byte after it")
    }

    @Test func deepNestingIsRefusedAtTheLimit() {
        for depth in [CBORReader.maxDepth + 2, 100_000] {
            let nested = [UInt8](repeating: 0x81, count: depth) + [0x00]
            let error = refused(nested, "depth \(depth)")
            #expect(error?.code == "unsupported", "\(error?.message ?? "")")
        }
        let nested = [UInt8](repeating: 0x81, count: CBORReader.maxDepth) + [0x00]
        #expect((try? CBORReader.decode(nested, what: "test")) != nil)
    }

    @Test func hugeLengthsAndCountsAreRefusedBeforeAnyAllocation() {
        let huge: [(String, [UInt8])] = [
            ("byte string of 2^64-1", [0x5B] + [UInt8](repeating: 0xFF, count: 8)),
            ("text string of 2^32-1", [0x7A, 0xFF, 0xFF, 0xFF, 0xFF]),
            ("array of 2^64-1", [0x9B] + [UInt8](repeating: 0xFF, count: 8)),
            ("map of 65 entries", [0xB8, 65] + [UInt8](repeating: 0, count: 130)),
            ("array of 20 in 3 bytes", [0x94, 0, 0, 0]),
            ("a length that is cut", [0x59, 0x01]),
        ]
        for (what, bytes) in huge { _ = refused(bytes, what) }
    }

    @Test func itemsOutsideThePasskeySubsetAreRefused() {
        let others: [(String, [UInt8])] = [
            ("indefinite byte string", [0x5F, 0x41, 0x00, 0xFF]),
            ("indefinite map", [0xBF, 0xFF]),
            ("tag", [0xC0, 0x00]),
            ("float", [0xFB] + [UInt8](repeating: 0, count: 8)),
            ("true", [0xF5]),
            ("reserved additional information", [0x1C]),
            ("text that is not UTF-8", [0x62, 0xC3, 0x28]),
            ("a key twice", [0xA2, 0x01, 0x00, 0x01, 0x00]),
            ("a number below -2^63", [0x3B] + [UInt8](repeating: 0xFF, count: 8)),
        ]
        for (what, bytes) in others { _ = refused(bytes, what) }
    }

    @Test func randomBytesAndRandomEditsOfARealObjectNeverCrash() {
        // Seeded, so that a failure is found again.
        var generator = Xoshiro(seed: (41, 41, 41, 41))
        let object = TestAuthenticator().attestationObject()
        for _ in 0..<3_000 {
            let random = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                UInt8.random(in: .min ... .max, using: &generator)
            }
            _ = try? rp.register(clientDataJSON: clientData, attestationObject: random)
            var edited = object
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                edited[Int.random(in: 0..<edited.count, using: &generator)] = UInt8.random(
                    in: .min ... .max, using: &generator)
            }
            do {
                _ = try rp.register(clientDataJSON: clientData, attestationObject: edited)
            } catch {
                #expect(error is WebAuthnError, "\(error)")
            }
        }
    }

    @Test func hostileAuthenticatorDataIsRefused() {
        let short = [UInt8](repeating: 0, count: 36)
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(short) }
        // The AT flag with a credential id longer than the data.
        var data = [UInt8](repeating: 0, count: 32) + [0x41, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        data += [0xFF, 0xFF, 1, 2, 3]
        #expect(throws: WebAuthnError.self) { try AuthenticatorData(data) }
    }
}
