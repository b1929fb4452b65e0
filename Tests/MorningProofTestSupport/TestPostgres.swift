import Foundation
import MorningProofPostgres
import MorningProofStoreContract
import PostgresNIO
import Testing

/// The throwaway PostgreSQL server of `scripts/with-postgres`, whose address is in
/// MORNINGPROOF_TEST_POSTGRES_URL. Each test gets a database of its own, created through the
/// server's `postgres` maintenance database and dropped afterwards, so tests run side by side.
public enum TestPostgres {
    static let environment = ProcessInfo.processInfo.environment
    /// The server's URL, nil when the tests do not run inside scripts/with-postgres.
    public static let url: PostgresURL? = environment["MORNINGPROOF_TEST_POSTGRES_URL"].flatMap { try? PostgresURL($0) }
    /// CI sets MORNINGPROOF_REQUIRE_POSTGRES=1: there a missing server fails instead of skipping.
    public static let required = environment["MORNINGPROOF_REQUIRE_POSTGRES"] == "1"
    public static var isAvailable: Bool { url != nil }
    public static let skipped: Comment = "no PostgreSQL: run inside scripts/with-postgres"

    /// Runs `body` with the URL of a new, empty database, dropped when `body` ends however it ends.
    public static func withDatabase<T: Sendable>(_ body: (PostgresURL) async throws -> T) async throws -> T {
        let server = try #require(url, "\(skipped)")
        let name = "mp_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        // A UTF-8 locale, as a production database has: lower() there folds more than ASCII.
        try await maintenance(server, "CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8'")
        do {
            let result = try await body(server.database(name))
            try await maintenance(server, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            try? await maintenance(server, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// A migrated store on a new database, running while `body` runs.
    public static func withStore<T: Sendable>(poolSize: Int = 4, _ body: (PostgresStore) async throws -> T) async throws
        -> T
    {
        try await withDatabase { url in
            let store = PostgresStore(url: url, poolSize: poolSize)
            try await store.migrate()
            return try await store.whileRunning { try await body(store) }
        }
    }

    /// Two stores on one new database, as two server processes would hold it (pools of their own),
    /// for the length of `body`.
    public static func withTwoServers<T: Sendable>(
        _ body: (_ one: PostgresStore, _ two: PostgresStore) async throws -> T
    ) async throws -> T {
        try await withDatabase { url in
            let one = PostgresStore(url: url, poolSize: 4)
            try await one.migrate()
            let two = PostgresStore(url: url, poolSize: 4)
            return try await one.whileRunning { try await two.whileRunning { try await body(one, two) } }
        }
    }

    /// Runs one statement in the server's `postgres` database (CREATE and DROP DATABASE cannot run in a transaction).
    private static func maintenance(_ server: PostgresURL, _ sql: String) async throws {
        let store = PostgresStore(url: server.database("postgres"), poolSize: 1)
        try await store.whileRunning { try await store.client.query(PostgresQuery(unsafeSQL: sql)) }
    }

    /// Every row of `sql`'s first column in the database at `url`, as strings.
    public static func strings(_ url: PostgresURL, _ sql: String) async throws -> [String] {
        let store = PostgresStore(url: url, poolSize: 1)
        return try await store.whileRunning { try await strings(store, sql) }
    }

    /// Runs each statement of `sql` in turn in the database at `url`.
    public static func execute(_ url: PostgresURL, _ sql: String...) async throws {
        let store = PostgresStore(url: url, poolSize: 1)
        try await store.whileRunning { for statement in sql { try await execute(store, statement) } }
    }

    /// Runs `sql` (one statement) through a running store.
    public static func execute(_ store: PostgresStore, _ sql: String) async throws {
        try await store.client.query(PostgresQuery(unsafeSQL: sql))
    }

    /// Every row of `sql`'s first column, as strings, through a running store.
    public static func strings(_ store: PostgresStore, _ sql: String) async throws -> [String] {
        var values: [String] = []
        for try await value in try await store.client.query(PostgresQuery(unsafeSQL: sql)).decode(String.self) {
            values.append(value)
        }
        return values
    }
}
