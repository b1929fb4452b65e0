import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: ProofStore {
    /// The account's evidence of any day other than `day` that this photo repeats: the same SHA-256, or a
    /// perceptual hash within `maxDistance` bits. Byte-identical matches come first, then the closest.
    public func evidenceMatch(
        sha256: String, perceptualHash: Int64, maxDistance: Int, otherThan day: LocalDay
    ) throws -> EvidenceMatch? {
        try read { db in
            try Self.evidenceMatch(db, sha256, perceptualHash, maxDistance, otherThan: day, accountID: accountID)
        }
    }

    /// Records `entry` with its photo evidence in one write transaction, unless the photo repeats
    /// the evidence of another day (checked in the same transaction), in which case nothing changes.
    public func recordProof(_ entry: Entry, evidence: PhotoEvidence, maxDistance: Int) async throws -> ProofOutcome {
        try await asyncWrite { db in
            try requireOwnHabit(db, entry.habitID)
            if let match = try Self.evidenceMatch(
                db, evidence.sha256, evidence.perceptualHash, maxDistance, otherThan: entry.day, accountID: accountID)
            {
                return .duplicate(match)
            }
            let outcome = try Self.record(entry, in: db)
            guard
                let entryID = try Int64.fetchOne(
                    db, sql: "SELECT id FROM entry WHERE habitId = ? AND day = ?",
                    arguments: [entry.habitID, entry.day.description])
            else { return .recorded(outcome) }
            let already =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM evidence WHERE entryId = ? AND sha256 = ?)",
                    arguments: [entryID, evidence.sha256]) ?? false
            if !already { try EvidenceRow(evidence, entryID: entryID).insert(db) }
            return .recorded(outcome)
        }
    }

    /// The evidence stored for a habit's day, oldest first.
    public func evidence(habitID: Int64, day: LocalDay) throws -> [PhotoEvidence] {
        try read { db in
            try requireOwnHabit(db, habitID)
            return try EvidenceRow.fetchAll(
                db,
                sql: """
                    SELECT evidence.* FROM evidence JOIN entry ON entry.id = evidence.entryId
                    WHERE entry.habitId = ? AND entry.day = ? ORDER BY evidence.id
                    """, arguments: [habitID, day.description]
            ).map(\.evidence)
        }
    }

    static func evidenceMatch(
        _ db: Database, _ sha256: String, _ perceptualHash: Int64, _ maxDistance: Int, otherThan day: LocalDay,
        accountID: Int64
    ) throws -> EvidenceMatch? {
        // The account's own earlier proofs: another person's photos say nothing about this one's.
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT entry.day, entry.habitId, evidence.sha256, evidence.perceptualHash
                FROM evidence JOIN entry ON entry.id = evidence.entryId JOIN habit ON habit.id = entry.habitId
                WHERE habit.accountId = ? AND entry.day <> ? ORDER BY entry.day
                """, arguments: [accountID, day.description])
        let earlier = rows.compactMap { row -> ProofPolicy.EarlierProof? in
            LocalDay(row["day"] as String).map {
                ProofPolicy.EarlierProof(
                    day: $0, habitID: row["habitId"], sha256: row["sha256"], perceptualHash: row["perceptualHash"])
            }
        }
        return ProofPolicy.repeated(
            sha256: sha256, perceptualHash: perceptualHash, among: earlier, maxDistance: maxDistance)
    }
}
