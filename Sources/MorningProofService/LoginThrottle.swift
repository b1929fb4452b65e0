import Foundation
import MorningProofCore
import MorningProofStore

/// Failed sign-ins counted per email and per address over a sliding window. Past a limit, every
/// attempt for that email or from that address is refused, right password or not, until the
/// oldest failure leaves the window. The failures live in a `SignInFailureStore`: memory for one
/// server (a restart forgets them), the shared database for servers on PostgreSQL.
public struct LoginThrottle: Sendable {
    public let window: TimeInterval
    public let perEmail: Int
    public let perAddress: Int
    let failures: any SignInFailureStore

    public init(
        failures: any SignInFailureStore = MemorySignInFailures(), perEmail: Int = 5, perAddress: Int = 20,
        window: TimeInterval = 15 * 60
    ) {
        self.failures = failures
        self.perEmail = perEmail
        self.perAddress = perAddress
        self.window = window
    }

    /// Whole seconds to wait before the next attempt, or nil when one may be made now.
    public func retryAfter(email: String, address: String, now: Date) async throws -> Int? {
        let limits = [Self.key(email: email): perEmail, Self.key(address: address): perAddress]
        let recent = try await failures.signInFailures(
            keys: Array(limits.keys), since: now.addingTimeInterval(-window))
        return limits.compactMap { key, limit -> Int? in
            let times = (recent[key] ?? []).filter { now.timeIntervalSince($0) < window }
            guard times.count >= limit, let oldest = times.first else { return nil }
            return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
        }.max()
    }

    public func recordFailure(email: String, address: String, now: Date) async throws {
        try await failures.recordSignInFailure(
            keys: [Self.key(email: email), Self.key(address: address)], at: now,
            forgetBefore: now.addingTimeInterval(-window))
    }

    /// A successful sign-in clears the email's failures (not the address's).
    public func recordSuccess(email: String) async throws {
        try await failures.clearSignInFailures(key: Self.key(email: email))
    }

    private static func key(email: String) -> String { "email " + email.lowercased() }
    private static func key(address: String) -> String { "address " + address }
}

/// The failures of one server process, in memory; bounded, since keys whose failures have all
/// left the window are dropped once there are many.
public final class MemorySignInFailures: SignInFailureStore {
    private let failures = Locked([String: [Date]]())

    public init() {}

    public func signInFailures(keys: [String], since: Date) -> [String: [Date]] {
        failures.withLock { failures in
            keys.reduce(into: [:]) { found, key in
                let times = (failures[key] ?? []).filter { $0 >= since }
                if !times.isEmpty { found[key] = times }
            }
        }
    }

    public func recordSignInFailure(keys: [String], at instant: Date, forgetBefore: Date) {
        failures.withLock { failures in
            for key in keys {
                failures[key, default: []].removeAll { $0 < forgetBefore }
                failures[key, default: []].append(instant)
            }
            if failures.count > 10_000 {
                failures = failures.filter { $0.value.contains { $0 >= forgetBefore } }
            }
        }
    }

    public func clearSignInFailures(key: String) {
        _ = failures.withLock { $0.removeValue(forKey: key) }
    }
}
