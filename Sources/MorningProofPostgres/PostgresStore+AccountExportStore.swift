import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract
import PostgresNIO

/// The account's whole history as `morningproof export` writes it, as `AppDatabase`'s.
extension PostgresStore: AccountExportStore {
    /// Every habit (archived ones too, in the order they were created) with its entries (oldest
    /// first) and their photo evidence, read from one snapshot.
    public func exportDocument() async throws -> ExportDocument {
        try await transaction(.snapshot) { connection in
            let habits = try await connection.query(
                "SELECT \(unescaped: Self.habitColumns) FROM habit WHERE accountId = \(accountID) ORDER BY id",
                logger: logger
            ).collect().map(Self.habit(from:))
            var evidence: [Int64: [LocalDay: [PortableEvidence]]] = [:]
            let proofs = try await connection.query(
                """
                SELECT entry.habitId, entry.day, evidence.sha256, evidence.perceptualHash, evidence.captureTime,
                    evidence.verdict, evidence.confidence, evidence.features, evidence.recordedAt
                FROM evidence JOIN entry ON entry.id = evidence.entryId JOIN habit ON habit.id = entry.habitId
                WHERE habit.accountId = \(accountID) ORDER BY evidence.id
                """, logger: logger)
            for try await (habitID, day, sha256, hash, captureTime, verdict, confidence, features, recordedAt)
                in proofs.decode((Int64, String, String, Int64, String?, String, Double, String, Date).self)
            {
                guard let day = LocalDay(day) else { continue }
                evidence[habitID, default: [:]][day, default: []].append(
                    PortableEvidence(
                        PhotoEvidence(
                            sha256: sha256, perceptualHash: hash, captureTime: captureTime, verdict: verdict,
                            confidence: confidence, features: features, recordedAt: recordedAt)))
            }
            var entries: [Int64: [PortableEntry]] = [:]
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.entryColumns) FROM entry
                WHERE habitId IN (SELECT id FROM habit WHERE accountId = \(accountID)) ORDER BY habitId, day
                """, logger: logger
            ).collect()
            for entry in try rows.compactMap(Self.entry(from:)) {
                entries[entry.habitID, default: []].append(
                    PortableEntry(entry, evidence: evidence[entry.habitID]?[entry.day] ?? []))
            }
            return ExportDocument(habits: habits.map { PortableHabit($0, entries: entries[$0.id] ?? []) })
        }
    }
}
