import Logging
import MorningProofPostgres
import MorningProofSQLite
import MorningProofServer
import MorningProofService
import MorningProofStoreContract
import Observer
import ServiceLifecycle

/// The database `serve` serves, of either engine: the one place where the engines differ for the
/// server (how each is opened, where sign-in failures are counted, what runs beside the HTTP server).
enum ServedDatabase: Sendable {
    /// The SQLite file at `path`, opened for a server's readers and writer.
    case sqlite(AppDatabase, path: String)
    /// A PostgreSQL database, migrated, its pool not yet running.
    case postgres(PostgresStore)

    /// Every account, and what the notification pass reads across them.
    var accounts: any AccountStore & NotificationPassStore {
        switch self {
        case .sqlite(let store, _): store
        case .postgres(let store): store
        }
    }

    /// The rows of the account `id`.
    func account(_ id: Int64) -> NotificationPass.AccountStore {
        switch self {
        case .sqlite(let store, _): store.scoped(to: id)
        case .postgres(let store): store.scoped(to: id)
        }
    }

    /// Where failed sign-ins are counted: in PostgreSQL, which every server process on it shares; in
    /// this process's memory beside a SQLite file.
    var signInFailures: any SignInFailureStore {
        switch self {
        case .sqlite: MemorySignInFailures()
        case .postgres(let store): store
        }
    }

    /// What runs beside the HTTP server, and stops after it: PostgreSQL's pool.
    var services: [any Service] {
        switch self {
        case .sqlite: []
        case .postgres(let store): [store]
        }
    }

    /// The database as the server names it once it listens.
    var name: String {
        switch self {
        case .sqlite(_, let path): path
        case .postgres(let store): "PostgreSQL at \(store.url)"
        }
    }

    /// The server's Web Push identity, loaded or made before the services run: PostgreSQL's through a
    /// pool of its own, the store's running only once, as a service.
    func pushIdentity(contact: String?, logger: Logger) async throws -> VAPIDIdentity {
        switch self {
        case .sqlite(let store, _):
            return try await PushIdentity.load(from: store, contact: contact, logger: logger)
        case .postgres(let store):
            let setup = PostgresStore(url: store.url, poolSize: 1, logger: logger)
            return try await setup.whileRunning {
                try await PushIdentity.load(from: setup, contact: contact, logger: logger)
            }
        }
    }
}

extension DatabaseOption {
    /// The database chosen, opened to serve with `readers` connections (PostgreSQL: its pool's size,
    /// waiting `connectionWait` before it checks the database); a SQLite file's failed rebuilds of
    /// stored habit states are warnings in the log.
    func served(readers: Int, connectionWait: Duration, logger: Logger) async throws -> ServedDatabase {
        if let store = try await postgres(poolSize: readers, connectionWait: connectionWait, logger: logger) {
            return .postgres(store)
        }
        let path = DatabaseLocation.resolve(explicit: self.path)
        var store = try AppDatabase.openShared(path: path, readers: readers)
        store.stateRebuildFailed = { [logger] error in
            logger.warning("cannot save habit states that a read found out of date: \(error.message)")
        }
        return .sqlite(store, path: path)
    }
}
