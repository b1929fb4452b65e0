import Foundation
import MorningProofStore
import PostgresNIO

/// The sign-in throttle's failures, in the database that every server shares: a limit counts the
/// failures made through any of them.
extension PostgresStore: SignInFailureStore {
    /// The failures of each of `keys` at or after `since`, oldest first.
    public func signInFailures(keys: [String], since: Date) async throws -> [String: [Date]] {
        try await transaction(.statement) { connection in
            var found: [String: [Date]] = [:]
            let rows = try await connection.query(
                "SELECT key, at FROM signInFailure WHERE key = ANY(\(keys)) AND at >= \(since) ORDER BY at",
                logger: logger)
            for try await (key, at) in rows.decode((String, Date).self) { found[key, default: []].append(at) }
            return found
        }
    }

    /// Records one failure under each of `keys`, and deletes every failure before `forgetBefore`
    /// (any key's: the table holds one window of failures, which the per-address limit bounds).
    public func recordSignInFailure(keys: [String], at instant: Date, forgetBefore: Date) async throws {
        try await transaction(.writing) { connection in
            try await connection.query("DELETE FROM signInFailure WHERE at < \(forgetBefore)", logger: logger)
            try await connection.query(
                "INSERT INTO signInFailure (key, at) SELECT unnest(\(keys)::text[]), \(instant)", logger: logger)
        }
    }

    /// Forgets every failure of `key`.
    public func clearSignInFailures(key: String) async throws {
        try await transaction(.statement) { connection in
            try await connection.query("DELETE FROM signInFailure WHERE key = \(key)", logger: logger)
        }
    }
}
