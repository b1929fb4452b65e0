import Foundation
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import Testing

/// The engines a test runs on: SQLite always, PostgreSQL inside scripts/with-postgres. A test that
/// takes `Engine.available` as its arguments is one test run once per engine.
public enum Engine: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    public static var available: [Engine] { TestPostgres.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    public var testDescription: String { rawValue }

    /// A new, empty store of this engine for the length of `body`: SQLite in memory, or in a file of
    /// its own with a pool of readers (as the server opens it) when `file`; PostgreSQL a database of
    /// its own on the throwaway server, through `poolSize` connections.
    public func withStore<T: Sendable>(
        poolSize: Int = 4, file: Bool = false, _ body: (any AccountStore & PerAccountStore) async throws -> T
    ) async throws -> T {
        switch self {
        case .sqlite where file:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "morningproof-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await body(
                try AppDatabase.openShared(path: folder.appendingPathComponent("test.sqlite").path, readers: 4))
        case .sqlite: return try await body(try AppDatabase.inMemory())
        case .postgres: return try await TestPostgres.withStore(poolSize: poolSize) { try await body($0) }
        }
    }
}
