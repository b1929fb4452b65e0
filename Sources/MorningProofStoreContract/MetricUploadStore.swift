import Foundation
import MorningProofCore

/// An upload's metrics stored all or nothing without holding them all in memory (issue 38): the
/// reader keeps its batches aside (on disk) as it reads, and the store takes them back one at a
/// time inside one transaction, so that memory stays flat with the upload's size and an upload cut
/// short (a crash, a kill) leaves nothing stored.
public protocol MetricUploadStore: MetricImportStore {
    /// Stores every batch `next` gives, in order, until it gives nil, each as `storeMetrics` stores
    /// one, all or nothing: an error `next` throws stores none of them; memory holds one batch at a
    /// time. SQLite stages them a chunk at a time and publishes them in one short transaction, so
    /// that other accounts' writes do not wait for the whole upload; PostgreSQL stores them in one
    /// transaction (its row locks do not hold other accounts up).
    func storeMetrics(batches next: @escaping @Sendable () throws -> MetricBatch?) async throws -> MetricWriteOutcome
}

extension MetricWriteOutcome {
    /// Adds what storing another batch changed.
    public mutating func add(_ other: MetricWriteOutcome) {
        recordsStored += other.recordsStored
        duplicatesSkipped += other.duplicatesSkipped
        daysTouched.formUnion(other.daysTouched)
    }
}
