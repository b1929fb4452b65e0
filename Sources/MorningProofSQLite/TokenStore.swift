import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: TokenStore {
    /// Stores a token by its SHA-256; expired tokens of the same account go at the same time.
    public func insertToken(
        accountID: Int64, name: String, tokenHash: String, createdAt: Date, expiresAt: Date?, scope: TokenScope
    ) async throws -> APIToken {
        try await asyncWrite { db in
            try db.execute(
                sql: "DELETE FROM api_token WHERE accountId = ? AND expiresAt <= ?", arguments: [accountID, createdAt])
            try db.execute(
                sql: """
                    INSERT INTO api_token (accountId, name, tokenHash, createdAt, expiresAt, scope)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [accountID, name, tokenHash, createdAt, expiresAt, scope.rawValue])
            let email = try String.fetchOne(db, sql: "SELECT email FROM account WHERE id = ?", arguments: [accountID])
            return APIToken(
                id: db.lastInsertedRowID, accountID: accountID, email: email, name: name, createdAt: createdAt,
                expiresAt: expiresAt, scope: scope)
        }
    }

    /// The profile of the account whose unexpired token of one of `scopes` has this SHA-256, or nil.
    public func account(tokenHash: String, at now: Date, scopes: Set<TokenScope>) async throws -> AccountProfile? {
        try await asyncRead { db in try Self.account(db, tokenHash: tokenHash, at: now, scopes: scopes) }
    }

    /// Runs `body` for the account an unexpired token signs in, in the same transaction as the
    /// token check, so that a request costs one trip to the database; nil for a bad token.
    func asTokenHolder<T: Sendable>(
        _ tokenHash: String, at now: Date, scopes: Set<TokenScope>, writing: Bool,
        _ body: @escaping @Sendable (Database, AccountProfile) throws -> T
    ) async throws -> T? {
        let work: @Sendable (Database) throws -> T? = { db in
            try Self.account(db, tokenHash: tokenHash, at: now, scopes: scopes).map { try body(db, $0) }
        }
        return writing ? try await asyncWrite(work) : try await asyncRead(work)
    }

    static func account(_ db: Database, tokenHash: String, at now: Date, scopes: Set<TokenScope>) throws
        -> AccountProfile?
    {
        // A disabled account's tokens sign nothing in (`AccountCareStore.isOfDisabledAccount` says why).
        let sql = """
            SELECT accountId, scope FROM api_token WHERE tokenHash = ? AND (expiresAt IS NULL OR expiresAt > ?)
                AND (SELECT disabledAt FROM account WHERE account.id = api_token.accountId) IS NULL
            """
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [tokenHash, now]),
            let scope = TokenScope(rawValue: row["scope"]), scopes.contains(scope)
        else {
            return nil
        }
        let id: Int64 = row["accountId"]
        return try profile(db, id: id)
    }

    /// Tokens of one account, or of every account, oldest first.
    public func tokens(accountID: Int64? = nil) async throws -> [APIToken] {
        try await asyncRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT api_token.*, account.email FROM api_token JOIN account ON account.id = api_token.accountId
                    WHERE ? IS NULL OR accountId = ? ORDER BY api_token.id
                    """,
                arguments: [accountID, accountID]
            ).map { row in
                APIToken(
                    id: row["id"], accountID: row["accountId"], email: row["email"], name: row["name"],
                    createdAt: row["createdAt"], expiresAt: row["expiresAt"],
                    scope: TokenScope(rawValue: row["scope"]) ?? .full)
            }
        }
    }

    /// Deletes a token by id (only among one account's, when given); false when there was none.
    public func revokeToken(id: Int64, accountID: Int64? = nil) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(
                sql: "DELETE FROM api_token WHERE id = ? AND (? IS NULL OR accountId = ?)",
                arguments: [id, accountID, accountID])
            return db.changesCount == 1
        }
    }

    /// Deletes the token with this SHA-256; false when there was none.
    public func revokeToken(hash: String) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(sql: "DELETE FROM api_token WHERE tokenHash = ?", arguments: [hash])
            return db.changesCount == 1
        }
    }
}
