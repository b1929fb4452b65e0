import Foundation
import Logging
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO
import ServiceLifecycle

/// The MorningProof database on PostgreSQL: the server's store when many processes share one
/// database. Migrations are `PostgresMigrations`; the reads and writes mirror `AppDatabase`'s,
/// with the same signatures, so that both can conform to one protocol.
///
/// Its pool of connections works only while it runs: run it as a `Service` in the server's
/// `ServiceGroup` (its `run()` ends when the group shuts down), or wrap a use in `whileRunning`.
/// Run it once: a stopped store cannot be started again.
public struct PostgresStore: Sendable {
    /// The connection pool, watched for outages (`PoolSupervisor`).
    let pool: PoolSupervisor
    /// The database's address, for messages (never its password).
    public let url: PostgresURL
    let logger: Logger
    /// The spans status reads entries over, by schedule (`TodayStatement`), shared by scoped copies.
    let scheduleSpans = ScheduleSpans()
    /// The account whose habits, entries, settings and gate this value reads and writes (`HabitStore`):
    /// the owner unless `scoped(to:)` says otherwise. Another account's rows are not found.
    public private(set) var accountID: Int64 = AccountProfile.ownerID

    /// The same store (the same pool), seen as the account `id`.
    public func scoped(to id: Int64) -> PostgresStore {
        var scoped = self
        scoped.accountID = id
        return scoped
    }

    /// How long requests wait for a connection that the pool does not hand out before PostgreSQL
    /// is checked (and then 503), unless the store is told otherwise.
    public static let defaultConnectionWait: Duration = .seconds(3)

    /// A store on the database at `url` (see `PostgresURL`) through at most `poolSize` connections.
    /// Nothing connects until it runs; a URL that is not a PostgreSQL database's is
    /// `StoreError(.invalid)`.
    public init(
        url: String, poolSize: Int, connectionWait: Duration = defaultConnectionWait,
        logger: Logger = PostgresStore.silent
    ) throws {
        try self.init(url: PostgresURL(url), poolSize: poolSize, connectionWait: connectionWait, logger: logger)
    }

    /// A store on the database at `url` through at most `poolSize` connections. While requests
    /// wait `connectionWait` for a connection and none is handed out, PostgreSQL is checked: when
    /// it cannot be reached, those requests and every later one fail at once with
    /// `StoreError(.unavailable)` until it answers again.
    public init(
        url: PostgresURL, poolSize: Int, connectionWait: Duration = defaultConnectionWait,
        logger: Logger = PostgresStore.silent
    ) {
        self.url = url
        self.logger = logger
        pool = PoolSupervisor(url: url, poolSize: poolSize, wait: connectionWait, logger: logger)
    }

    /// The pool requests lease from now (a new one after an outage): for tests and maintenance.
    public var client: PostgresClient { pool.client }

    /// Logs nothing: the default, since the server logs what the store's errors say.
    public static let silent = Logger(label: "morningproof.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs the pool while `body` runs, then stops it: a store for the length of one task (tests,
    /// one-shot commands).
    @discardableResult
    public func whileRunning<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await pool.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    /// How a transaction sees others' writes.
    enum Isolation {
        /// One statement, which is its own transaction: no BEGIN and COMMIT to wait for.
        case statement
        /// Each statement sees what was committed before it; conflicts are decided by UNIQUE keys.
        case writing
        /// One snapshot for every read of the transaction, which writes nothing.
        case snapshot

        var begin: PostgresQuery? {
            switch self {
            case .statement: nil
            case .writing: "BEGIN ISOLATION LEVEL READ COMMITTED"
            case .snapshot: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
            }
        }
    }

    /// Runs `body` in one transaction on a pooled connection: committed when it returns, rolled
    /// back when it throws. A writing transaction ends by bringing the derived state of the habits
    /// it touched up to date (`refreshHabitStates`). PostgreSQL's errors become store errors; `body`'s own pass through.
    func transaction<T: Sendable>(
        _ isolation: Isolation, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await pool.withConnection { connection in
                try await Self.transaction(on: connection, isolation, logger: logger) { connection in
                    let result = try await body(connection)
                    // Derived state commits with what it derives from (`PostgresStore+HabitState`).
                    if isolation == .writing { try await Self.refreshHabitStates(connection, logger: logger) }
                    return result
                }
            }
        } catch let error as PSQLError {
            throw PostgresErrors.storeError(error, url: url)
        } catch let error as PostgresDecodingError {
            throw StoreError(
                .unavailable, value: url.description,
                "PostgreSQL at \(url): column \(error.columnName) holds a \(error.postgresType) that this MorningProof "
                    + "cannot read: is the database another program's?")
        }
    }

    /// `body` between BEGIN and COMMIT on `connection`, rolled back when it throws.
    nonisolated(nonsending) static func transaction<T: Sendable>(
        on connection: PostgresConnection, _ isolation: Isolation, logger: Logger,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        guard let begin = isolation.begin else { return try await body(connection) }
        try await connection.query(begin, logger: logger)
        do {
            let result = try await body(connection)
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            // PostgreSQL rolls back what a closed connection began; a ROLLBACK written to one could
            // wait for ever (see `PoolSupervisor.untilLost`).
            guard !connection.isClosed else { throw error }
            do {
                try await connection.query("ROLLBACK", logger: logger)
            } catch {
                // A connection whose transaction cannot be ended must not go back to the pool open.
                try? await connection.close()
            }
            throw error
        }
    }
}

extension PostgresStore: Service {
    /// Runs the pool, and replaces it after an outage, until the task is cancelled or the service
    /// group shuts down gracefully.
    public func run() async throws {
        await pool.run()
    }
}

/// PostgreSQL's errors as store errors, with what a person can do about them.
enum PostgresErrors {
    static func unreachable(_ url: PostgresURL, _ cause: String) -> StoreError {
        StoreError(
            .unavailable, value: url.description,
            "cannot connect to PostgreSQL at \(url) (\(cause)): check that the server is running and that the "
                + "host and port in the database URL are right")
    }

    /// Why a connection failed, in the system's words ("Connection refused") rather than NIO's.
    static func reason(of error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let last = failure.connectionErrors.last { return reason(of: last.error) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "the host name does not resolve" }
        }
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)) }
        return "\(error)"
    }

    static func storeError(_ error: PSQLError, url: PostgresURL) -> StoreError {
        func unavailable(_ message: String) -> StoreError {
            StoreError(.unavailable, value: url.description, "PostgreSQL at \(url): \(message)")
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? "?"
            let message = error.serverInfo?[.message] ?? "no message"
            switch state {
            case "3D000":
                return unavailable("there is no database \"\(url.database)\": create it (createdb) or fix the URL")
            case "28000", "28P01":
                return unavailable("user \"\(url.user)\" cannot sign in (\(message)): check the user and password")
            case "53300":
                return unavailable("no free connection (\(message)): lower the pool size or raise max_connections")
            case "57P01", "57P02", "57P03":
                return unavailable("the server is shutting down or starting up (\(message)); try again")
            case "23505":
                return StoreError(
                    .conflict, value: url.description, "PostgreSQL at \(url): \(message) (another row has that value)")
            case "23503":
                return StoreError.removedMeanwhile(url.description)
            case "40001", "40P01":
                return StoreError(
                    .busy, value: url.description, "PostgreSQL at \(url): \(message) (another request won); try again")
            default:
                return unavailable("database error \(state): \(message)")
            }
        case .sslUnsupported:
            return unavailable("the server does not offer TLS, which the URL requires (sslmode=require)")
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .failedToAddSSLHandler:
            return unreachable(url, error.underlying.map(reason(of:)) ?? "\(error.code)")
        case .poolClosed, .clientClosedConnection:
            return unavailable("the connection pool is not running (run the store as a service)")
        default:
            return unavailable("\(error.code)")
        }
    }
}
