/// The store contract: what the use cases read and write, one protocol a file, each served by
/// SQLite (`AppDatabase`, in MorningProofSQLite) and by PostgreSQL (`PostgresStore`, in
/// MorningProofPostgres) in a file named for the protocol: `HabitStore` is declared in
/// `HabitStore.swift` here, served in `HabitStore.swift` (SQLite) and `PostgresStore+HabitStore.swift`.
/// The stores only read and write; the rules stay in Core and in the services, so both engines
/// answer alike. Every call is `async`: it suspends while the database works and never blocks a
/// thread.
///
/// A value sees one account (`scoped(to:)`): another account's habits are not found.
public protocol AccountScopedStore: Sendable {
    /// The account this value reads and writes: the owner (the CLI's data) unless scoped otherwise.
    var accountID: Int64 { get }
    /// The same store, seen as the account `id`.
    func scoped(to id: Int64) -> Self
}
