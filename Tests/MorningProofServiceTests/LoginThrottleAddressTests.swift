import Foundation
import MorningProofCore
import Testing

@testable import MorningProofService

/// The sign-in and sign-up limits count an IPv6 client by its /64 (issue 38, point 7): one /64 is
/// one person, who can pick any of its addresses.
@Suite("Sign-in limits by address")
struct LoginThrottleAddressTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func isRefused(_ attempt: () async throws -> Void) async -> Bool {
        do {
            try await attempt()
            return false
        } catch let error as MorningProofError {
            return error.code == "too_many_attempts"
        } catch {
            return false
        }
    }

    @Test func tenSignUpsPerSlash64() async throws {
        let throttle = LoginThrottle()
        for host in 1...10 { try await throttle.reserveSignUp(address: "2001:db8::\(host)", now: now) }
        #expect(await isRefused { try await throttle.reserveSignUp(address: "2001:db8::ffff:11", now: now) })
        // Another /64, and an IPv4 address, have their own ten.
        try await throttle.reserveSignUp(address: "2001:db8:0:1::1", now: now)
        try await throttle.reserveSignUp(address: "192.0.2.1", now: now)
    }

    @Test func wrongPasswordsFromOneSlash64CountTogether() async throws {
        let throttle = LoginThrottle()
        for host in 1...5 {
            _ = try await throttle.reserveSignIn(email: "a@example.com", address: "2001:db8::\(host)", now: now)
        }
        #expect(
            await isRefused {
                _ = try await throttle.reserveSignIn(email: "a@example.com", address: "2001:db8::6", now: now)
            })
        _ = try await throttle.reserveSignIn(email: "a@example.com", address: "2001:db8:1::1", now: now)
    }
}
