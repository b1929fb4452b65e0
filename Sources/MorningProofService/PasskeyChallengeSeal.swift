import Foundation
import MorningProofStoreContract
import WebAuthn

/// A passkey ceremony's challenge that the server stores nothing of when it issues it: random bytes
/// and an expiry, sealed by HMAC-SHA256 under the server's key together with the ceremony's purpose
/// and account. Asking for one writes no row, so an unauthenticated flood of option requests costs
/// the database nothing; `finish` opens the seal, and only an answer that checks out is recorded
/// (`PasskeyStore.spendPasskeyChallenge`), so that it is answered once.
struct PasskeyChallengeSeal: Sendable {
    static let version: UInt8 = 1
    static let randomCount = 16
    /// version, purpose, expiry (8 bytes), random bytes, then the 32 bytes of the seal.
    static let sealedCount = 2 + 8 + randomCount + ChallengeCode.count

    /// The server's key (`PasskeyStore.passkeyChallengeKey`).
    let key: [UInt8]

    /// A new challenge for `purpose` (a registration's for `accountID`), valid until `expiresAt`.
    func issue(_ purpose: PasskeyChallenge.Purpose, accountID: Int64?, expiresAt: Date) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let seconds = UInt64(max(0, expiresAt.timeIntervalSince1970.rounded(.up)))
        let body =
            [Self.version, Self.tag(of: purpose)] + Self.bigEndian(seconds)
            + (0..<Self.randomCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return body + ChallengeCode.code(key: key, message: Self.sealed(body, accountID: accountID))
    }

    /// The expiry of `challenge` when this server's key sealed it for `purpose` and `accountID` and it
    /// has not expired at `now`; nil for any other bytes.
    func open(_ challenge: [UInt8], _ purpose: PasskeyChallenge.Purpose, accountID: Int64?, now: Date) -> Date? {
        guard challenge.count == Self.sealedCount, challenge[0] == Self.version, challenge[1] == Self.tag(of: purpose)
        else { return nil }
        let body = Array(challenge.prefix(Self.sealedCount - ChallengeCode.count))
        let code = Array(challenge.suffix(ChallengeCode.count))
        guard ChallengeCode.isValid(code, key: key, message: Self.sealed(body, accountID: accountID)) else { return nil }
        let seconds = challenge[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let expiry = Date(timeIntervalSince1970: TimeInterval(seconds))
        return expiry > now ? expiry : nil
    }

    /// What the code covers: the challenge's bytes and the account it is for (0 for a sign-in).
    private static func sealed(_ body: [UInt8], accountID: Int64?) -> [UInt8] {
        body + bigEndian(UInt64(bitPattern: accountID ?? 0))
    }

    private static func tag(of purpose: PasskeyChallenge.Purpose) -> UInt8 {
        switch purpose {
        case .registration: 1
        case .authentication: 2
        }
    }

    static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }
}
