import GRDB

extension AppDatabase {
    /// Runs `body` in a write transaction on GRDB's writer, suspending the caller instead of
    /// blocking its thread (a server's event loop), ending as `write` does; GRDB errors become MorningProof errors.
    func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write { db in
                let result = try body(db)
                try Self.refreshHabitStates(db)
                return result
            }
        } catch let error as DatabaseError {
            return try Self.translatingErrors(path: writer.path) { throw error }
        }
    }

    /// Runs `body` on a consistent snapshot, suspending the caller instead of blocking its thread.
    func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(body)
        } catch let error as DatabaseError {
            return try Self.translatingErrors(path: writer.path) { throw error }
        }
    }
}
