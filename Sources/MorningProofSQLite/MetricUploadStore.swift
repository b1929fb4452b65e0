import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// An upload's batches stored in one write transaction, taken back one at a time (issue 38).
extension AppDatabase: MetricUploadStore {
    public func storeMetrics(batches next: @escaping @Sendable () throws -> MetricBatch?) async throws
        -> MetricWriteOutcome
    {
        let account = accountID
        return try await asyncWrite { db in
            var outcome = MetricWriteOutcome()
            while let batch = try next() { outcome.add(try Self.storeBatch(batch, file: nil, account, db)) }
            return outcome
        }
    }
}
