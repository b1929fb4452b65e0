import Foundation
import GRDB
import MorningProofCore
import MorningProofInterchange

extension AppDatabase {
    /// Plans an import against what is stored (`ImportMerge`: merge into a habit of the same name, what is
    /// here wins) and, with `apply`, writes the plan in one transaction, planned inside it: all of it or,
    /// on any error, nothing. Without `apply` nothing is written.
    public func importBatch(_ batch: ImportBatch, merge: Bool, apply: Bool) throws -> ImportPlan {
        func plan(_ db: Database) throws -> ImportPlan {
            let stored = try HabitRecord.filter(HabitRecord.Columns.accountId == accountID)
                .order(HabitRecord.Columns.id).fetchAll(db).map(\.habit)
            return try ImportMerge.plan(
                batch, stored: stored,
                entries: { habit in
                    try EntryRecord.filter(EntryRecord.Columns.habitId == habit.id).fetchAll(db).compactMap(\.entry)
                        .reduce(into: [:]) { $0[$1.day] = $1 }
                }, merge: merge)
        }
        guard apply else { return try read(plan) }
        return try write { db in
            let planned = try plan(db)
            for item in planned.items { try Self.store(item, accountID: accountID, in: db) }
            return planned
        }
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
        for imported in item.newEntries {
            guard try record(imported.recorded(for: habitID), in: db) == .recorded else { continue }
            let entryID = db.lastInsertedRowID
            for evidence in imported.evidence { try EvidenceRow(PhotoEvidence(evidence), entryID: entryID).insert(db) }
        }
    }
}

extension PhotoEvidence {
    /// Evidence as the store keeps it: the features as a JSON object with sorted keys.
    init(_ evidence: PortableEvidence) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.init(
            sha256: evidence.sha256, perceptualHash: evidence.perceptualHash, captureTime: evidence.captureTime,
            verdict: evidence.verdict, confidence: evidence.confidence,
            features: (try? encoder.encode(evidence.features)).map { String(decoding: $0, as: UTF8.self) } ?? "{}",
            recordedAt: evidence.recordedAt)
    }
}

extension PortableEvidence {
    /// Stored evidence, its features read back from their JSON (none when they do not parse).
    init(_ evidence: PhotoEvidence) {
        let features = try? JSONDecoder().decode([String: Double].self, from: Data(evidence.features.utf8))
        self.init(
            sha256: evidence.sha256, perceptualHash: evidence.perceptualHash, captureTime: evidence.captureTime,
            verdict: evidence.verdict, confidence: evidence.confidence, features: features ?? [:],
            recordedAt: evidence.recordedAt)
    }
}
