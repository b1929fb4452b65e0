import Foundation
import GRDB
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract

extension AppDatabase: InterchangeStore {
    /// Plans an import against what is stored (`ImportMerge`: merge into a habit of the same name, what is
    /// here wins) one habit at a time and, with `apply`, writes each in the same transaction as the plan
    /// is read in: all of it or, on any error, nothing. Without `apply` nothing is written. The stream
    /// is read inside the transaction, on GRDB's writer (a Loop backup's habits are read from its file
    /// as their turn comes), so that only one habit's entries are held at once.
    public func importHabits(_ habits: ImportStream, merge: Bool, apply: Bool) async throws -> ImportPlan {
        let accountID = accountID
        @Sendable func plan(_ db: Database, store: Bool) throws -> ImportPlan {
            let stored = try HabitRecord.filter(HabitRecord.Columns.accountId == accountID)
                .order(HabitRecord.Columns.id).fetchAll(db).map(\.habit)
            let write: (ImportPlan.Item) throws -> Void = { try Self.store($0, accountID: accountID, in: db) }
            return try habits.plan(
                stored: stored, merge: merge,
                entries: { habit in
                    try EntryRecord.filter(EntryRecord.Columns.habitId == habit.id).fetchAll(db).compactMap(\.entry)
                        .reduce(into: [:]) { $0[$1.day] = $1 }
                },
                store: store ? write : nil)
        }
        guard apply else { return try await asyncRead { try plan($0, store: false) } }
        return try await asyncWrite { try plan($0, store: true) }
    }

    private static func store(_ item: ImportPlan.Item, accountID: Int64, in db: Database) throws {
        let habitID: Int64
        if let existing = item.mergeInto {
            habitID = existing.id
            if let day = item.newCreatedDay {
                try db.execute(
                    sql: "UPDATE habit SET createdDay = ? WHERE id = ?", arguments: [day.description, habitID])
            }
        } else {
            var record = HabitRecord(item.habit.habit, accountID: accountID)
            try record.insert(db)
            habitID = db.lastInsertedRowID
        }
        // One prepared statement for every row: building each insert through the query interface
        // cost about 0.5 s of CPU per habit of 2,000 days, all of it inside the write lock.
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO entry (habitId, day, status, value, source, note, recordedAt, zone)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for day in item.entriesOnePerDay(habitID: habitID) {
            let entry = day.entry
            try insert.execute(arguments: [
                habitID, entry.day.description, entry.status.rawValue, entry.value, entry.source.rawValue, entry.note,
                entry.recordedAt, entry.zone,
            ])
            let entryID = db.lastInsertedRowID
            for evidence in day.evidence { try EvidenceRow(PhotoEvidence(evidence), entryID: entryID).insert(db) }
        }
    }

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
