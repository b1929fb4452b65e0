import Foundation
import MorningProofStoreContract
import PostgresNIO

/// One named schema change: statements run in order, in the migrating transaction.
struct PostgresMigration: Sendable {
    let name: String
    let statements: [String]
}

extension PostgresStore {
    /// Every schema change, in order. Never edit a migration that has landed: add a new one.
    static let migrations = [
        PostgresMigration(name: "v1-schema", statements: PostgresSchema.v1),
        PostgresMigration(name: "v2-sign-in-failures", statements: PostgresSchema.v2),
        PostgresMigration(name: "v3-sign-in-attempts", statements: PostgresSchema.v3),
        PostgresMigration(name: "v4-metric-accounts", statements: PostgresSchema.v4),
        PostgresMigration(name: "v5-token-scope", statements: PostgresSchema.v5),
        PostgresMigration(name: "v6-habit-state", statements: PostgresSchema.v6),
        PostgresMigration(name: "v7-notification-channels", statements: PostgresSchema.v7),
        PostgresMigration(name: "v8-entry-changes", statements: PostgresSchema.v8),
        PostgresMigration(name: "v9-habit-position", statements: PostgresSchema.v9),
        PostgresMigration(name: "v14-reference-photos", statements: PostgresSchema.referencePhotos),
        PostgresMigration(name: "v15-account-care", statements: PostgresSchema.accountCare),
        PostgresMigration(name: "v16-gate-scopes", statements: PostgresSchema.gateTokenScopes),
        PostgresMigration(name: "v17-proof-scenes", statements: PostgresSchema.proofScenes),
        PostgresMigration(name: "v18-passkeys", statements: PostgresSchema.passkeys),
        PostgresMigration(name: "v19-sealed-challenges", statements: PostgresSchema.sealedPasskeyChallenges),
        PostgresMigration(name: "v20-account-keys", statements: PostgresSchema.notificationAccountKey),
    ]

    /// The names of the migrations this build knows, in order.
    public static var migrationNames: [String] { migrations.map(\.name) }

    /// The key of the transaction-level advisory lock that migrations take: "MPPGMIGR" in ASCII.
    static let migrationLock: Int64 = 0x4D50_5047_4D49_4752

    /// Brings the schema up to date and returns the names of the migrations it applied (none when
    /// it was up to date). All of them run in one transaction under an advisory lock, so servers
    /// that start at once apply each migration once: the others wait, then find nothing to do.
    /// A database with a migration this build does not know (from a newer MorningProof) is
    /// refused with `StoreError(.unavailable)` and left as it was.
    ///
    /// It uses a connection of its own, not the pool, so it needs no `run()` and fails at once
    /// when the server cannot be reached.
    @discardableResult
    public func migrate() async throws -> [String] {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: url.connectionConfiguration(), id: 0, logger: logger)
            do {
                let applied = try await Self.transaction(on: connection, .writing, logger: logger) {
                    try await Self.migrate($0, logger: logger, url: url)
                }
                try? await connection.close()
                return applied
            } catch {
                try? await connection.close()
                throw error
            }
        } catch let error as PSQLError {
            throw PostgresErrors.storeError(error, url: url)
        }
    }

    private static func migrate(_ connection: PostgresConnection, logger: Logger, url: PostgresURL) async throws
        -> [String]
    {
        // Held until the transaction ends; the next migrator's statements then see what this one committed.
        try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL)
            """, logger: logger)
        var done: Set<String> = []
        for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger)
            .decode(String.self)
        {
            done.insert(name)
        }
        let unknown = done.subtracting(migrationNames).sorted()
        guard unknown.isEmpty else {
            throw StoreError(
                .unavailable, value: url.description,
                "PostgreSQL at \(url): the database has migrations this MorningProof does not know "
                    + "(\(unknown.joined(separator: ", "))): it comes from a newer MorningProof; upgrade this one")
        }
        var applied: [String] = []
        for migration in migrations where !done.contains(migration.name) {
            for statement in migration.statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (\(migration.name), now())", logger: logger)
            applied.append(migration.name)
        }
        return applied
    }
}
