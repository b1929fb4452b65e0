import Foundation
import GRDB
import MorningProofStoreContract

/// Passkeys (issue 41): an account's WebAuthn credentials, and the challenges that their
/// registrations and sign-ins answered, kept by SHA-256 only until they expire.
enum PasskeySchema {
    static func create(_ db: Database) throws {
        try db.create(table: "passkey") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("account", onDelete: .cascade).notNull()
            // base64url of the id the authenticator chose; one account at most holds it.
            t.column("credentialId", .text).notNull().unique()
            // The COSE_Key as the authenticator wrote it.
            t.column("publicKey", .blob).notNull()
            t.column("signCount", .integer).notNull()
            t.column("name", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("lastUsedAt", .datetime)
        }
        try db.create(table: "passkeyChallenge") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("challengeHash", .text).notNull().unique()
            t.column("purpose", .text).notNull()
            // The account a registration adds to; null for a sign-in.
            t.belongsTo("account", onDelete: .cascade)
            t.column("createdAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull().indexed()
        }
    }

    /// Challenges sealed by the server's key (`v19-sealed-challenges`): issued ones are no longer stored, so
    /// `passkeyChallenge` keeps the answered ones; the rows of challenges issued before go.
    static func sealChallenges(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM passkeyChallenge")
        try db.create(table: "passkeyChallengeKey") { t in
            t.column("id", .integer).primaryKey().check { $0 == 1 }
            t.column("secret", .blob).notNull()
            t.column("createdAt", .datetime).notNull()
        }
    }
}

extension AppDatabase: PasskeyStore {
    public func passkeyChallengeKey(orStore candidate: Data) async throws -> Data {
        let sql = "SELECT secret FROM passkeyChallengeKey WHERE id = 1"
        if let stored = try await asyncRead({ try Data.fetchOne($0, sql: sql) }) { return stored }
        return try await writeImmediately { db in
            // The immediate transaction holds the write lock: of two processes, the second reads the first's key.
            try db.execute(
                sql: "INSERT OR IGNORE INTO passkeyChallengeKey (id, secret, createdAt) VALUES (1, ?, ?)",
                arguments: [candidate, Date()])
            return try Data.fetchOne(db, sql: sql) ?? candidate
        }
    }

    public func spendPasskeyChallenge(_ challenge: PasskeyChallenge, perAccountLimit: Int) async throws
        -> PasskeyChallengeSpend
    {
        try await writeImmediately { db in
            try db.execute(sql: "DELETE FROM passkeyChallenge WHERE expiresAt <= ?", arguments: [challenge.createdAt])
            if try Bool.fetchOne(
                db, sql: "SELECT 1 FROM passkeyChallenge WHERE challengeHash = ?", arguments: [challenge.hash]) == true
            {
                return .used
            }
            let answered =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM passkeyChallenge WHERE accountId = ?",
                    arguments: [challenge.accountID]
                ) ?? 0
            guard answered < perAccountLimit else { return .tooMany }
            try db.execute(
                sql: """
                    INSERT INTO passkeyChallenge (challengeHash, purpose, accountId, createdAt, expiresAt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    challenge.hash, challenge.purpose.rawValue, challenge.accountID, challenge.createdAt,
                    challenge.expiresAt,
                ])
            return .spent
        }
    }

    public func addPasskey(_ passkey: NewPasskey) async throws -> StoredPasskey? {
        try await asyncWrite { db in
            try db.execute(
                sql: """
                    INSERT INTO passkey (accountId, credentialId, publicKey, signCount, name, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (credentialId) DO NOTHING
                    """,
                arguments: [
                    passkey.accountID, passkey.credentialID, passkey.publicKey, passkey.signCount, passkey.name,
                    passkey.createdAt,
                ])
            guard db.changesCount == 1 else { return nil }
            return StoredPasskey(id: db.lastInsertedRowID, passkey, lastUsedAt: nil)
        }
    }

    public func passkeys(accountID: Int64) async throws -> [StoredPasskey] {
        try await asyncRead { db in
            try Row.fetchAll(db, sql: "SELECT * FROM passkey WHERE accountId = ? ORDER BY id", arguments: [accountID])
                .map(Self.storedPasskey)
        }
    }

    public func passkey(credentialID: String) async throws -> StoredPasskey? {
        try await asyncRead { db in
            try Row.fetchOne(db, sql: "SELECT * FROM passkey WHERE credentialId = ?", arguments: [credentialID])
                .map(Self.storedPasskey)
        }
    }

    public func recordPasskeyUse(id: Int64, expected: Int64, signCount: Int64, at instant: Date) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(
                sql: "UPDATE passkey SET signCount = ?, lastUsedAt = ? WHERE id = ? AND signCount = ?",
                arguments: [signCount, instant, id, expected])
            return db.changesCount == 1
        }
    }

    public func deletePasskey(id: Int64, accountID: Int64) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(sql: "DELETE FROM passkey WHERE id = ? AND accountId = ?", arguments: [id, accountID])
            return db.changesCount == 1
        }
    }

    private static func storedPasskey(_ row: Row) -> StoredPasskey {
        StoredPasskey(
            id: row["id"],
            NewPasskey(
                accountID: row["accountId"], credentialID: row["credentialId"], publicKey: row["publicKey"],
                signCount: row["signCount"], name: row["name"], createdAt: row["createdAt"]),
            lastUsedAt: row["lastUsedAt"])
    }
}
