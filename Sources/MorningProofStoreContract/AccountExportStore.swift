import Foundation
import MorningProofInterchange

/// The account's whole history as one document (`morningproof export`, `GET /api/export`).
/// Served by both engines; `InterchangeStore` refines it with the import.
public protocol AccountExportStore: Sendable {
    /// Every habit of the account with its entries and evidence, as `export --format json` writes them.
    func exportDocument() async throws -> ExportDocument
}
