import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

extension PostgresSchema {
    /// Reference photos of photo habits (SQLite's "v14-reference-photos"): scene signatures as base64 text.
    static let referencePhotos = sceneSignatureTable(
        "referencePhoto",
        columns: [
            "width integer NOT NULL", "height integer NOT NULL", "signature text NOT NULL",
            "addedAt timestamptz NOT NULL",
        ],
        index: "CREATE INDEX referencePhoto_habit ON referencePhoto (habitId)")
}

/// Reference photos, as `AppDatabase`'s: at most `limit` a habit, checked and added in one transaction.
extension PostgresStore: ReferencePhotoStore {
    public func referencePhotos(habitID: Int64) async throws -> [ReferencePhoto] {
        try await transaction(.statement) { connection in
            try await Self.references(connection, accountID: accountID, habitID: habitID, logger: logger)
        }
    }

    public func addReferencePhoto(_ reference: NewReferencePhoto, habitID: Int64, limit: Int) async throws
        -> ReferencePhoto?
    {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, habitID, accountID: accountID, logger: logger)
            let existing = try await Self.references(
                connection, accountID: accountID, habitID: habitID, logger: logger)
            guard existing.count < limit else { return nil }
            try await connection.query(
                """
                INSERT INTO referencePhoto (accountId, habitId, width, height, signature, addedAt)
                VALUES (\(accountID), \(habitID), \(reference.width), \(reference.height),
                    \(reference.signature.base64EncodedString()), \(reference.addedAt))
                """, logger: logger)
            return ReferencePhoto(
                number: existing.count + 1, width: reference.width, height: reference.height,
                signature: reference.signature, addedAt: reference.addedAt)
        }
    }

    public func removeReferencePhoto(habitID: Int64, number: Int) async throws -> Bool {
        try await transaction(.writing) { connection in
            let ids = try await connection.query(
                "SELECT id FROM referencePhoto WHERE accountId = \(accountID) AND habitId = \(habitID) ORDER BY id",
                logger: logger
            ).collect().map { try $0.decode(Int64.self) }
            guard number >= 1, number <= ids.count else { return false }
            try await connection.query("DELETE FROM referencePhoto WHERE id = \(ids[number - 1])", logger: logger)
            return true
        }
    }

    private static func references(
        _ connection: PostgresConnection, accountID: Int64, habitID: Int64, logger: Logger
    ) async throws -> [ReferencePhoto] {
        try await connection.query(
            """
            SELECT width, height, signature, addedAt FROM referencePhoto
            WHERE accountId = \(accountID) AND habitId = \(habitID) ORDER BY id
            """, logger: logger
        ).collect().enumerated().map { index, row in
            let (width, height, signature, addedAt) = try row.decode((Int, Int, String, Date).self)
            return ReferencePhoto(
                number: index + 1, width: width, height: height, signature: Data(base64Encoded: signature) ?? Data(),
                addedAt: addedAt)
        }
    }
}
