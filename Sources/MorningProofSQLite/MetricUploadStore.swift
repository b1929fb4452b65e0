import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// An upload's batches staged a chunk at a time, then published in one short transaction (issue
/// 38, `MetricUploadStaging`): all or nothing, without holding SQLite's one write lock for the
/// whole upload. A kill before the publishing leaves staged rows only, which the next server
/// removes when it opens the file (`openShared`).
extension AppDatabase: MetricUploadStore {
    public func storeMetrics(batches next: @escaping @Sendable () throws -> MetricBatch?) async throws
        -> MetricWriteOutcome
    {
        let account = accountID
        let upload = Int64.random(in: 1...Int64.max)
        do {
            var outcome = MetricWriteOutcome()
            var exports = MetricBatch()
            while let batch = try next() {
                var samples = batch.samples[...]
                var intervals = batch.intervals[...]
                while !samples.isEmpty || !intervals.isEmpty {
                    let someSamples = samples.prefix(MetricUploadStaging.chunkRows)
                    let someIntervals = intervals.prefix(MetricUploadStaging.chunkRows - someSamples.count)
                    samples = samples.dropFirst(someSamples.count)
                    intervals = intervals.dropFirst(someIntervals.count)
                    outcome.add(
                        try await asyncWrite { db in
                            try MetricUploadStaging.stage(
                                samples: someSamples, intervals: someIntervals, upload: upload, account, db)
                        })
                }
                exports.exportAggregates += batch.exportAggregates
                exports.exportDate = batch.exportDate ?? exports.exportDate
                exports.exportComplete = batch.exportComplete
            }
            let published = try await asyncWrite { [outcome, exports] db in
                var published = outcome
                let meanwhile = try MetricUploadStaging.publish(upload, account, db)
                published.recordsStored -= meanwhile
                published.duplicatesSkipped += meanwhile
                if !exports.exportAggregates.isEmpty {
                    try Self.storeExportAggregates(exports, account, db, &published)
                }
                try Self.markForJudgement(published.daysTouched, account, db)
                return published
            }
            try await removeStagedRows(of: upload)
            return published
        } catch {
            try? await removeStagedRows(of: upload)
            throw error
        }
    }

    /// Removes the staged rows of `upload` (every upload's when nil), a few thousand per transaction.
    func removeStagedRows(of upload: Int64?) async throws {
        while try await asyncWrite({ db in try MetricUploadStaging.remove(upload, limit: 5_000, db) }) {}
    }
}
