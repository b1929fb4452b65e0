import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// An upload's batches stored in one transaction, taken back one at a time, as `AppDatabase`'s (issue 38).
extension PostgresStore: MetricUploadStore {
    public func storeMetrics(batches next: @escaping @Sendable () throws -> MetricBatch?) async throws
        -> MetricWriteOutcome
    {
        let account = accountID
        return try await transaction(.writing) { connection in
            // The account's row first, as its deletion takes it (`holdAccount`): never a deadlock with it.
            try await Self.holdAccount(connection, account, url: url, logger: logger)
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(Self.metricWriteLock + account))", logger: logger)
            var outcome = MetricWriteOutcome()
            while let batch = try next() {
                outcome.add(try await Self.storeBatch(batch, file: nil, account, connection, logger: logger))
            }
            return outcome
        }
    }
}
