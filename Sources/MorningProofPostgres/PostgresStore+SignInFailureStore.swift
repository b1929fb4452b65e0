import Foundation
import MorningProofStoreContract
import PostgresNIO

/// The sign-in throttle's attempts, in the database that every server shares: a limit counts the
/// attempts made through any of them.
extension PostgresStore: SignInFailureStore {
    /// Counts the attempt `id` under each of `keys` when `decide` allows it, under a transaction-level
    /// advisory lock per key (taken in sorted order, so two attempts never wait for each other's):
    /// attempts under one key, through any server, are counted one after the other.
    public func reserveSignInAttempt(
        _ id: String, keys: [String], at instant: Date, since: Date,
        decide: @escaping @Sendable ([String: [Date]]) -> Int?
    ) async throws -> Int? {
        try await transaction(.writing) { connection in
            for key in Set(keys).sorted() {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended(\(key), \(Self.attemptLockSeed)))", logger: logger)
            }
            try await connection.query("DELETE FROM signInAttempt WHERE at < \(since)", logger: logger)
            var found: [String: [Date]] = [:]
            let rows = try await connection.query(
                "SELECT key, at FROM signInAttempt WHERE key = ANY(\(keys)) ORDER BY at", logger: logger)
            for try await (key, at) in rows.decode((String, Date).self) { found[key, default: []].append(at) }
            if let wait = decide(found) { return wait }
            try await connection.query(
                "INSERT INTO signInAttempt (id, key, at) SELECT \(id), unnest(\(keys)::text[]), \(instant)",
                logger: logger)
            return nil
        }
    }

    /// Forgets the attempt `id`.
    public func releaseSignInAttempt(_ id: String, keys: [String]) async throws {
        try await transaction(.statement) { connection in
            try await connection.query(
                "DELETE FROM signInAttempt WHERE id = \(id) AND key = ANY(\(keys))", logger: logger)
        }
    }

    /// Forgets every attempt of `key`.
    public func clearSignInAttempts(key: String) async throws {
        try await transaction(.statement) { connection in
            try await connection.query("DELETE FROM signInAttempt WHERE key = \(key)", logger: logger)
        }
    }

    /// Mixed into each key's advisory lock, so that the sign-in locks are apart from any other's: "MPSIGNIN".
    static let attemptLockSeed: Int64 = 0x4D50_5349_474E_494E
}
