import GRDB

extension AppDatabase {
    /// Runs `body` in a write transaction on GRDB's writer (suspending the caller, for a server's
    /// pool: see `suspends`); the transaction ends by bringing the derived state of the habits it
    /// touched up to date (`refreshHabitStates`). GRDB errors become store errors.
    func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard suspends else { return try write(body) }
        return try await translatingAsync {
            try await writer.write { db in
                let result = try body(db)
                try Self.refreshHabitStates(db)
                return result
            }
        }
    }

    /// Runs `body` on a consistent snapshot (suspending the caller, for a server's pool).
    func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard suspends else { return try read(body) }
        return try await translatingAsync { try await writer.read(body) }
    }

    /// A write transaction that takes the write lock at BEGIN, so that two processes deciding at
    /// once queue behind the busy timeout instead of failing on a lock upgrade.
    func writeImmediately<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard suspends else {
            return try Self.translatingErrors(path: path) {
                try writer.writeWithoutTransaction { db in try Self.inImmediateTransaction(db, body) }
            }
        }
        return try await translatingAsync {
            try await writer.writeWithoutTransaction { db in try Self.inImmediateTransaction(db, body) }
        }
    }

    private static func inImmediateTransaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        var result: T?
        try db.inTransaction(.immediate) {
            result = try body(db)
            try refreshHabitStates(db)
            return .commit
        }
        return result!
    }

    func translatingAsync<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            return try Self.translatingErrors(path: path) { throw error }
        }
    }
}
