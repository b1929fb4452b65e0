import Foundation
import MorningProofCore
import MorningProofInterchange

/// What importing and exporting whole habit histories read and write: the documents of
/// MorningProofInterchange (plain values), planned and stored in one transaction or read from one
/// snapshot. Reading another program's files is Interchange's and the import service's, not the
/// store's (a Loop backup through a `LoopBackupReader`). Served by both engines.
public protocol InterchangeStore: AccountExportStore {
    /// Plans (and with `apply`, stores in one transaction: all of it or, on any error, nothing) the
    /// habits of a stream, with their entries and evidence, one habit at a time: each is planned,
    /// stored and let go before the next is read, so the plan returned holds counts, not entries.
    /// With `merge`, habits that exist by name take the stream's days beside their own.
    func importHabits(_ habits: ImportStream, merge: Bool, apply: Bool) async throws -> ImportPlan
}

extension InterchangeStore {
    /// `importHabits` of a batch already read whole.
    public func importBatch(_ batch: ImportBatch, merge: Bool, apply: Bool) async throws -> ImportPlan {
        try await importHabits(ImportStream(batch), merge: merge, apply: apply)
    }
}
