import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The schema of proof scenes (migration "v17-proof-scenes"): one row per photo proof kept, a table
/// of scene signatures (`SceneSignatureTable`) with the day proved and the photo's difference hash.
enum ProofSceneSchema {
    static func create(_ db: Database) throws {
        try SceneSignatureTable.create(
            db, "proofScene",
            columns: [
                "day TEXT NOT NULL", "signature TEXT NOT NULL", "perceptualHash INTEGER NOT NULL",
                "recordedAt DATETIME NOT NULL",
            ],
            index: "CREATE INDEX proofScene_account ON proofScene(accountId, id)")
    }
}

extension AppDatabase: ProofSceneStore {
    public func proofScenes(limit: Int) async throws -> [ProofScene] {
        try await asyncRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT habitId, day, signature, perceptualHash FROM proofScene
                    WHERE accountId = ? ORDER BY id DESC LIMIT ?
                    """,
                arguments: [accountID, limit]
            ).compactMap { row in
                guard let day = LocalDay(row["day"] as String),
                    let signature = Data(base64Encoded: row["signature"] as String)
                else { return nil }
                return ProofScene(
                    habitID: row["habitId"], day: day, signature: signature, perceptualHash: row["perceptualHash"])
            }
        }
    }

    public func keepProofScene(_ scene: ProofScene, at instant: Date) async throws {
        try await asyncWrite { db in
            try requireOwnHabit(db, scene.habitID)
            try db.execute(
                sql: """
                    INSERT INTO proofScene (accountId, habitId, day, signature, perceptualHash, recordedAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    accountID, scene.habitID, scene.day.description, scene.signature.base64EncodedString(),
                    scene.perceptualHash, instant,
                ])
        }
    }
}
