import Foundation
import Testing

@testable import MorningProofService

/// The seal of passkey challenges (issue 41): a challenge opens only for its purpose, its account
/// and its lifetime, under the key that sealed it (the code itself: WebAuthnTests' ChallengeCodeTests).
@Suite struct PasskeyChallengeSealTests {
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
