import Foundation
import Testing

@testable import MorningProofService

/// The seal of passkey challenges (issue 41): HMAC-SHA256 as RFC 4231 gives it, and a challenge
/// that opens only for its purpose, its account and its lifetime, under the key that sealed it.
@Suite struct PasskeyChallengeSealTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func hmacMatchesRFC4231() {
        #expect(
            Self.hex(HMACSHA256.code(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // A key longer than the block is hashed first (test case 6).
        #expect(
            Self.hex(
                HMACSHA256.code(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func aChallengeOpensOnlyForItsPurposeAccountAndLifetime() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let seal = PasskeyChallengeSeal(key: Array(repeating: 1, count: 32))
        let expiry = now.addingTimeInterval(300)
        let registration = seal.issue(.registration, accountID: 7, expiresAt: expiry)
        #expect(registration.count == PasskeyChallengeSeal.sealedCount)
        #expect(seal.open(registration, .registration, accountID: 7, now: now) == expiry)
        #expect(seal.open(registration, .registration, accountID: 8, now: now) == nil)
        #expect(seal.open(registration, .authentication, accountID: 7, now: now) == nil)
        #expect(seal.open(registration, .registration, accountID: 7, now: expiry) == nil)
        #expect(
            PasskeyChallengeSeal(key: Array(repeating: 2, count: 32))
                .open(registration, .registration, accountID: 7, now: now) == nil)
        let signIn = seal.issue(.authentication, accountID: nil, expiresAt: expiry)
        #expect(seal.open(signIn, .authentication, accountID: nil, now: now) == expiry)
        #expect(signIn != seal.issue(.authentication, accountID: nil, expiresAt: expiry), "random bytes in each")
        for index in signIn.indices {
            var changed = signIn
            changed[index] ^= 0x80
            #expect(seal.open(changed, .authentication, accountID: nil, now: now) == nil, "byte \(index) changed")
        }
        #expect(seal.open(Array(signIn.dropLast()), .authentication, accountID: nil, now: now) == nil)
    }
}
