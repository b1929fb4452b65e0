import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

extension PostgresSchema {
    /// Scenes of photo proofs (SQLite's "v17-proof-scenes"): scene signatures as base64 text.
    static let proofScenes = sceneSignatureTable(
        "proofScene",
        columns: [
            "day text NOT NULL", "signature text NOT NULL", "perceptualHash bigint NOT NULL",
            "recordedAt timestamptz NOT NULL",
        ],
        index: "CREATE INDEX proofScene_account ON proofScene (accountId, id)")
}

/// Scenes of photo proofs, as `AppDatabase`'s.
extension PostgresStore: ProofSceneStore {
    public func proofScenes(limit: Int) async throws -> [ProofScene] {
        try await transaction(.statement) { connection in
            try await connection.query(
                """
                SELECT habitId, day, signature, perceptualHash FROM proofScene WHERE accountId = \(accountID)
                ORDER BY id DESC LIMIT \(limit)
                """, logger: logger
            ).collect().compactMap { row in
                let (habitID, day, signature, hash) = try row.decode((Int64, String, String, Int64).self)
                guard let day = LocalDay(day), let data = Data(base64Encoded: signature) else { return nil }
                return ProofScene(habitID: habitID, day: day, signature: data, perceptualHash: hash)
            }
        }
    }

    public func keepProofScene(_ scene: ProofScene, at instant: Date) async throws {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, scene.habitID, accountID: accountID, logger: logger)
            try await connection.query(
                """
                INSERT INTO proofScene (accountId, habitId, day, signature, perceptualHash, recordedAt)
                VALUES (\(accountID), \(scene.habitID), \(scene.day.description),
                    \(scene.signature.base64EncodedString()), \(scene.perceptualHash), \(instant))
                """, logger: logger)
        }
    }
}
