import Foundation
import MorningProofCore

/// What importing and exporting whole habit histories read and write, beside the documents they
/// move (part of the store contract, declared here because its types are this module's). Served
/// by SQLite.
public protocol InterchangeStore: Sendable {
    /// Plans (and with `apply`, stores in one transaction) a batch of habits, entries and evidence;
    /// with `merge`, habits that exist by name take the batch's days beside their own.
    func importBatch(_ batch: ImportBatch, merge: Bool, apply: Bool) async throws -> ImportPlan
    /// Every habit of the account with its entries and evidence, as `export --format json` writes them.
    func exportDocument() async throws -> ExportDocument
    /// Reads a Loop Habit Tracker backup (`.db`, a SQLite file, which the engine that reads SQLite
    /// opens read-only); `label` names it in messages.
    func readLoopBackup(path: String, label: String) throws -> LoopBackup
}
