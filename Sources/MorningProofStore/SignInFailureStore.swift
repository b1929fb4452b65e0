import Foundation

/// Where the sign-in throttle (`LoginThrottle`, in the service layer, which owns the rule) keeps
/// its failed attempts, by key ("email ada@example.com", "address 192.0.2.7"). A server alone keeps
/// them in memory; servers that share a PostgreSQL database keep them there (`PostgresStore`
/// conforms), so that a limit holds across every process instead of per process.
public protocol SignInFailureStore: Sendable {
    /// The failures of each of `keys` at or after `since`, oldest first; a key without any is absent.
    func signInFailures(keys: [String], since: Date) async throws -> [String: [Date]]
    /// Records one failure at `instant` under each of `keys`, forgetting any failure before `forgetBefore`.
    func recordSignInFailure(keys: [String], at instant: Date, forgetBefore: Date) async throws
    /// Forgets every failure of `key`.
    func clearSignInFailures(key: String) async throws
}
