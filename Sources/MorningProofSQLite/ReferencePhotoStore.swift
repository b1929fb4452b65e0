import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The schema of reference photos (migration "v14-reference-photos"): one row per reference, a table
/// of scene signatures (`SceneSignatureTable`) with the photo's size and when it was added.
enum ReferencePhotoSchema {
    static func create(_ db: Database) throws {
        try SceneSignatureTable.create(
            db, "referencePhoto",
            columns: [
                "width INTEGER NOT NULL", "height INTEGER NOT NULL", "signature TEXT NOT NULL",
                "addedAt DATETIME NOT NULL",
            ],
            index: "CREATE INDEX referencePhoto_habit ON referencePhoto(habitId)")
    }
}

extension AppDatabase: ReferencePhotoStore {
    public func referencePhotos(habitID: Int64) async throws -> [ReferencePhoto] {
        try await asyncRead { db in try Self.references(db, accountID: accountID, habitID: habitID) }
    }

    public func addReferencePhoto(_ reference: NewReferencePhoto, habitID: Int64, limit: Int) async throws
        -> ReferencePhoto?
    {
        try await asyncWrite { db in
            let existing = try Self.references(db, accountID: accountID, habitID: habitID)
            guard existing.count < limit else { return nil }
            try db.execute(
                sql: """
                    INSERT INTO referencePhoto (accountId, habitId, width, height, signature, addedAt)
                    SELECT ?, id, ?, ?, ?, ? FROM habit WHERE id = ? AND accountId = ?
                    """,
                arguments: [
                    accountID, reference.width, reference.height, reference.signature.base64EncodedString(),
                    reference.addedAt, habitID, accountID,
                ])
            guard db.changesCount == 1 else { throw StoreError.noHabit(habitID) }
            return ReferencePhoto(
                number: existing.count + 1, width: reference.width, height: reference.height,
                signature: reference.signature, addedAt: reference.addedAt)
        }
    }

    public func removeReferencePhoto(habitID: Int64, number: Int) async throws -> Bool {
        try await asyncWrite { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM referencePhoto WHERE accountId = ? AND habitId = ? ORDER BY id",
                arguments: [accountID, habitID])
            guard number >= 1, number <= ids.count else { return false }
            try db.execute(sql: "DELETE FROM referencePhoto WHERE id = ?", arguments: [ids[number - 1]])
            return true
        }
    }

    private static func references(_ db: Database, accountID: Int64, habitID: Int64) throws -> [ReferencePhoto] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT width, height, signature, addedAt FROM referencePhoto
                WHERE accountId = ? AND habitId = ? ORDER BY id
                """,
            arguments: [accountID, habitID]
        ).enumerated().map { index, row in
            ReferencePhoto(
                number: index + 1, width: row["width"], height: row["height"],
                signature: Data(base64Encoded: row["signature"] as String) ?? Data(), addedAt: row["addedAt"])
        }
    }
}
