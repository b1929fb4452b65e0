import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract
import MorningProofInterchange

extension AppDatabase {
    /// Every habit (archived ones too, in the order they were created) with its entries (oldest first)
    /// and their photo evidence, read in one transaction so that the export is one moment's data.
    public func exportDocument() async throws -> ExportDocument {
        try await asyncRead { db in
            let habits = try HabitRecord.filter(HabitRecord.Columns.accountId == accountID)
                .order(HabitRecord.Columns.id).fetchAll(db).map(\.habit)
            var evidence: [Int64: [LocalDay: [PortableEvidence]]] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT entry.habitId, entry.day, evidence.* FROM evidence JOIN entry ON entry.id = evidence.entryId
                    JOIN habit ON habit.id = entry.habitId WHERE habit.accountId = ?
                    ORDER BY evidence.id
                    """, arguments: [accountID])
            for row in rows {
                guard let day = LocalDay(row["day"] as String) else { continue }
                evidence[row["habitId"], default: [:]][day, default: []].append(
                    PortableEvidence(try EvidenceRow(row: row).evidence))
            }
            var entries: [Int64: [PortableEntry]] = [:]
            let stored = try EntryRecord.filter(habits.map(\.id).contains(EntryRecord.Columns.habitId))
                .order(EntryRecord.Columns.habitId, EntryRecord.Columns.day).fetchAll(db)
            for entry in stored.compactMap(\.entry) {
                entries[entry.habitID, default: []].append(
                    PortableEntry(entry, evidence: evidence[entry.habitID]?[entry.day] ?? []))
            }
            return ExportDocument(habits: habits.map { PortableHabit($0, entries: entries[$0.id] ?? []) })
        }
    }
}
