import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Photo proofs, as `AppDatabase`'s: a photo that repeats the account's evidence of another day
/// (`ProofPolicy.repeated`) is refused and stores nothing.
extension PostgresStore: ProofStore {
    /// Records `entry` with its photo evidence in one transaction, unless the photo repeats the
    /// account's evidence of another day. The account's row is held while the evidence is checked,
    /// so that of two simultaneous proofs with one photo the second sees the first.
    public func recordProof(_ entry: Entry, evidence: PhotoEvidence, maxDistance: Int) async throws -> ProofOutcome {
        try await transaction(.writing) { connection in
            try await connection.query(
                "SELECT id FROM account WHERE id = \(accountID) FOR NO KEY UPDATE", logger: logger)
            try await Self.requireOwnHabit(connection, entry.habitID, accountID: accountID, logger: logger)
            // The account's own earlier proofs: another person's photos say nothing about this one's.
            let earlier = try await connection.query(
                """
                SELECT entry.day, entry.habitId, evidence.sha256, evidence.perceptualHash
                FROM evidence JOIN entry ON entry.id = evidence.entryId JOIN habit ON habit.id = entry.habitId
                WHERE habit.accountId = \(accountID) AND entry.day <> \(entry.day.description) ORDER BY entry.day
                """, logger: logger
            ).collect().compactMap { row -> ProofPolicy.EarlierProof? in
                let (day, habitID, sha256, hash) = try row.decode((String, Int64, String, Int64).self)
                return LocalDay(day).map {
                    ProofPolicy.EarlierProof(day: $0, habitID: habitID, sha256: sha256, perceptualHash: hash)
                }
            }
            if let match = ProofPolicy.repeated(
                sha256: evidence.sha256, perceptualHash: evidence.perceptualHash, among: earlier,
                maxDistance: maxDistance)
            {
                return .duplicate(match)
            }
            let outcome = try await Self.record(entry, connection, logger: logger)
            guard
                let entryID = try await connection.query(
                    "SELECT id FROM entry WHERE habitId = \(entry.habitID) AND day = \(entry.day.description)",
                    logger: logger
                ).collect().first?.decode(Int64.self)
            else { return .recorded(outcome) }
            try await connection.query(
                """
                INSERT INTO evidence (entryId, sha256, perceptualHash, captureTime, verdict, confidence, features,
                    recordedAt)
                SELECT \(entryID), \(evidence.sha256), \(evidence.perceptualHash), \(evidence.captureTime),
                    \(evidence.verdict), \(evidence.confidence), \(evidence.features), \(evidence.recordedAt)
                WHERE NOT EXISTS (SELECT 1 FROM evidence WHERE entryId = \(entryID) AND sha256 = \(evidence.sha256))
                """, logger: logger)
            return .recorded(outcome)
        }
    }
}
