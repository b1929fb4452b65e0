import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// API tokens, as `AppDatabase`'s: only a SHA-256 of each token is stored.
extension PostgresStore: TokenStore {
    /// Stores a token by its SHA-256; expired tokens of the same account go at the same time.
    public func insertToken(
        accountID: Int64, name: String, tokenHash: String, createdAt: Date, expiresAt: Date?, scope: TokenScope
    ) async throws -> APIToken {
        try await transaction(.writing) { connection in
            try await connection.query(
                "DELETE FROM api_token WHERE accountId = \(accountID) AND expiresAt <= \(createdAt)", logger: logger)
            let rows = try await connection.query(
                """
                INSERT INTO api_token (accountId, name, tokenHash, createdAt, expiresAt, scope)
                VALUES (\(accountID), \(name), \(tokenHash), \(createdAt), \(expiresAt), \(scope.rawValue))
                RETURNING id, (SELECT email FROM account WHERE id = \(accountID))
                """, logger: logger
            ).collect()
            let (id, email) = try rows[0].decode((Int64, String?).self)
            return APIToken(
                id: id, accountID: accountID, email: email, name: name, createdAt: createdAt, expiresAt: expiresAt,
                scope: scope)
        }
    }

    /// The profile of the account whose unexpired token of one of `scopes` has this SHA-256, or nil.
    public func account(tokenHash: String, at now: Date, scopes: Set<TokenScope>) async throws -> AccountProfile? {
        try await transaction(.statement) { connection in
            try await Self.account(connection, tokenHash: tokenHash, at: now, scopes: scopes, logger: logger)
        }
    }

    /// The account an unexpired token of one of `scopes` signs in, in one prepared statement.
    static func account(
        _ connection: PostgresConnection, tokenHash: String, at now: Date, scopes: Set<TokenScope>, logger: Logger
    ) async throws -> AccountProfile? {
        let statement = TokenAccountStatement(tokenHash: tokenHash, now: now, scopes: scopeNames(scopes))
        var found: AccountProfile?
        for try await row in try await connection.execute(statement, logger: logger) { found = try profile(from: row) }
        return found
    }

    /// The scopes' names, as a text[] to match with `= ANY(...)`.
    static func scopeNames(_ scopes: Set<TokenScope>) -> [String] {
        scopes.map(\.rawValue).sorted()
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
                let (id, accountID, email, name, createdAt, expiresAt, scope) = try row.decode(
                    (Int64, Int64, String?, String, Date, Date?, String).self)
                return APIToken(
                    id: id, accountID: accountID, email: email, name: name, createdAt: createdAt, expiresAt: expiresAt,
                    scope: TokenScope(rawValue: scope) ?? .full)
            }
        }
    }

    private static let tokenColumns = """
        api_token.id, api_token.accountId, account.email, api_token.name, api_token.createdAt, api_token.expiresAt,
        api_token.scope FROM api_token JOIN account ON account.id = api_token.accountId
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
