import Foundation
import MorningProofCore

/// Failed sign-ins counted per email and per address over a sliding window. Past a limit, every
/// attempt for that email or from that address is refused, right password or not, until the
/// oldest failure leaves the window. Kept in memory: a restart forgets it.
public final class LoginThrottle: Sendable {
    public let window: TimeInterval
    public let perEmail: Int
    public let perAddress: Int
    private let failures = Locked([String: [Date]]())

    public init(perEmail: Int = 5, perAddress: Int = 20, window: TimeInterval = 15 * 60) {
        self.perEmail = perEmail
        self.perAddress = perAddress
        self.window = window
    }

    /// Whole seconds to wait before the next attempt, or nil when one may be made now.
    public func retryAfter(email: String, address: String, now: Date) -> Int? {
        let keys = [(Self.key(email: email), perEmail), ("address " + address, perAddress)]
        return failures.withLock { failures in
            keys.compactMap { key, limit -> Int? in
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
                guard recent.count >= limit, let oldest = recent.first else { return nil }
                return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
            }.max()
        }
    }

    public func recordFailure(email: String, address: String, now: Date) {
        failures.withLock { failures in
            for key in [Self.key(email: email), "address " + address] {
                failures[key, default: []].removeAll { now.timeIntervalSince($0) >= window }
                failures[key, default: []].append(now)
            }
            // Forget keys whose failures have all left the window, so memory stays bounded.
            if failures.count > 10_000 {
                failures = failures.filter { $0.value.contains { now.timeIntervalSince($0) < window } }
            }
        }
    }

    /// A successful sign-in clears the email's failures (not the address's).
    public func recordSuccess(email: String) {
        _ = failures.withLock { $0.removeValue(forKey: Self.key(email: email)) }
    }

    private static func key(email: String) -> String { "email " + email.lowercased() }
}
