import Foundation

/// Where the sign-in throttle (`LoginThrottle`, in the service layer, which owns the rule) counts
/// attempts, by key ("email ada@example.com", "address 192.0.2.7"). A server alone keeps them in
/// memory; servers that share a PostgreSQL database keep them there (`PostgresStore` conforms), so
/// that a limit holds across every process instead of per process.
public protocol SignInFailureStore: Sendable {
    /// Under one lock that every server sharing the store respects: reads the attempts of each of
    /// `keys` at or after `since` (a key without any is absent), forgets every attempt before
    /// `since`, and asks `decide`; when it answers nil (allowed), records the attempt `id` at
    /// `instant` under each key. Returns what `decide` answered: nil, or the seconds to wait.
    func reserveSignInAttempt(
        _ id: String, keys: [String], at instant: Date, since: Date,
        decide: @escaping @Sendable ([String: [Date]]) -> Int?
    ) async throws -> Int?
    /// Forgets the attempt `id` (a sign-in that succeeded), recorded under `keys`.
    func releaseSignInAttempt(_ id: String, keys: [String]) async throws
    /// Forgets every attempt of `key`.
    func clearSignInAttempts(key: String) async throws
}
