import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// API tokens, as `AppDatabase`'s: only a SHA-256 of each token is stored.
extension PostgresStore {
    /// Stores a token by its SHA-256; expired tokens of the same account go at the same time.
    public func insertToken(
        accountID: Int64, name: String, tokenHash: String, createdAt: Date, expiresAt: Date?
    ) async throws -> APIToken {
        try await transaction(.writing) { connection in
            try await connection.query(
                "DELETE FROM api_token WHERE accountId = \(accountID) AND expiresAt <= \(createdAt)", logger: logger)
            let rows = try await connection.query(
                """
                INSERT INTO api_token (accountId, name, tokenHash, createdAt, expiresAt)
                VALUES (\(accountID), \(name), \(tokenHash), \(createdAt), \(expiresAt))
                RETURNING id, (SELECT email FROM account WHERE id = \(accountID))
                """, logger: logger
            ).collect()
            let (id, email) = try rows[0].decode((Int64, String?).self)
            return APIToken(
                id: id, accountID: accountID, email: email, name: name, createdAt: createdAt, expiresAt: expiresAt)
        }
    }

    /// The profile of the account whose unexpired token has this SHA-256, or nil.
    public func account(tokenHash: String, at now: Date) async throws -> AccountProfile? {
        try await transaction(.statement) { connection in
            try await Self.account(connection, tokenHash: tokenHash, at: now, logger: logger)
        }
    }

    /// The account an unexpired token signs in, in one statement.
    static func account(_ connection: PostgresConnection, tokenHash: String, at now: Date, logger: Logger)
        async throws -> AccountProfile?
    {
        try await connection.query(
            """
            SELECT \(unescaped: profileColumns) FROM api_token JOIN account ON account.id = api_token.accountId
            WHERE api_token.tokenHash = \(tokenHash) AND (api_token.expiresAt IS NULL OR api_token.expiresAt > \(now))
            """, logger: logger
        ).collect().first.map(profile(from:))
    }

    /// Tokens of one account, or of every account, oldest first.
    public func tokens(accountID: Int64? = nil) async throws -> [APIToken] {
        try await transaction(.statement) { connection in
            let query: PostgresQuery =
                if let accountID {
                    """
                    SELECT \(unescaped: Self.tokenColumns) WHERE api_token.accountId = \(accountID) ORDER BY api_token.id
                    """
                } else {
                    "SELECT \(unescaped: Self.tokenColumns) ORDER BY api_token.id"
                }
            return try await connection.query(query, logger: logger).collect().map { row in
                let (id, accountID, email, name, createdAt, expiresAt) = try row.decode(
                    (Int64, Int64, String?, String, Date, Date?).self)
                return APIToken(
                    id: id, accountID: accountID, email: email, name: name, createdAt: createdAt, expiresAt: expiresAt)
            }
        }
    }

    private static let tokenColumns = """
        api_token.id, api_token.accountId, account.email, api_token.name, api_token.createdAt, api_token.expiresAt
        FROM api_token JOIN account ON account.id = api_token.accountId
        """

    /// Deletes a token by id (only among one account's, when given); false when there was none.
    public func revokeToken(id: Int64, accountID: Int64? = nil) async throws -> Bool {
        try await transaction(.statement) { connection in
            let query: PostgresQuery =
                if let accountID {
                    "DELETE FROM api_token WHERE id = \(id) AND accountId = \(accountID) RETURNING id"
                } else {
                    "DELETE FROM api_token WHERE id = \(id) RETURNING id"
                }
            return try await !connection.query(query, logger: logger).collect().isEmpty
        }
    }

    /// Deletes the token with this SHA-256; false when there was none.
    public func revokeToken(hash: String) async throws -> Bool {
        try await transaction(.statement) { connection in
            try await !connection.query("DELETE FROM api_token WHERE tokenHash = \(hash) RETURNING id", logger: logger)
                .collect().isEmpty
        }
    }
}
