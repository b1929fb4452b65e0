import Foundation
import MorningProofStoreContract
import PostgresNIO

/// Holding an account's row while a transaction writes for it, in the order the account's deletion
/// takes its locks: the account's row first, then the rows that hang on it.
extension PostgresStore {
    /// Takes the row of account `accountID` FOR KEY SHARE, or throws `StoreError.removedMeanwhile`
    /// when it is gone. A write that holds some of the account's rows and then checks a foreign key
    /// to the account (inserting a notification, a sample, a mark) would otherwise wait for a
    /// deletion that holds the account's row and waits for those rows: a deadlock, which PostgreSQL
    /// ends by failing one of the two (503 for an upload). Taken first, the deletion waits for the
    /// write, or the write for the deletion and then finds the account gone (404). It does not
    /// conflict with the `FOR NO KEY UPDATE` other writes take on the account.
    static func holdAccount(_ connection: PostgresConnection, _ accountID: Int64, url: PostgresURL, logger: Logger)
        async throws
    {
        let held = try await connection.query(
            "SELECT id FROM account WHERE id = \(accountID) FOR KEY SHARE", logger: logger
        ).collect()
        if held.isEmpty { throw StoreError.removedMeanwhile(url.description) }
    }

    /// Takes the rows of the accounts `ids` FOR KEY SHARE, in id order (as `holdAccount` for many
    /// accounts at once; two such holders never wait for each other). An account that is gone is
    /// passed over: what is written for it finds no habit of it.
    static func holdAccounts(_ connection: PostgresConnection, _ ids: [Int64], logger: Logger) async throws {
        _ = try await connection.query(
            """
            SELECT count(*) FROM (
                SELECT id FROM account WHERE id = ANY(\(Array(Set(ids)).sorted())) ORDER BY id FOR KEY SHARE
            ) AS held
            """, logger: logger
        ).collect()
    }
}
