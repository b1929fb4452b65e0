import Foundation
import MorningProofCore
import MorningProofInterchange

/// What importing and exporting whole habit histories read and write: the documents of
/// MorningProofInterchange (plain values), planned and stored in one transaction or read from one
/// snapshot. Reading another program's files is Interchange's and the import service's, not the
/// store's (a Loop backup through a `LoopBackupReader`). Served by both engines.
public protocol InterchangeStore: AccountExportStore {
    /// Plans (and with `apply`, stores in one transaction) a batch of habits, entries and evidence;
    /// with `merge`, habits that exist by name take the batch's days beside their own.
    func importBatch(_ batch: ImportBatch, merge: Bool, apply: Bool) async throws -> ImportPlan
}
