import Foundation
import Logging
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract
import PostgresNIO

/// Imports of whole histories (Loop, harsh, our JSON), as `AppDatabase`'s: planned against what is
/// stored (`ImportMerge`) and, applied, written in the same transaction as the plan was read in.
extension PostgresStore: InterchangeStore {
    /// Plans an import against what is stored (merge into a habit of the same name, what is here
    /// wins) one habit at a time and, with `apply`, writes each in the same transaction as the plan
    /// is read in: all of it or, on any error, nothing. Without `apply` nothing is written. Only one
    /// habit's entries are held at once (a Loop backup's are read from its file as their turn comes).
    public func importHabits(_ habits: ImportStream, merge: Bool, apply: Bool) async throws -> ImportPlan {
        try await transaction(apply ? .writing : .snapshot) { connection in
            if apply {
                // One import of the account at a time: a second one waits, then plans against what
                // the first stored, so that the same file sent twice at once adds its days once.
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(Self.importLockSpace), \(Int32(truncatingIfNeeded: accountID)))",
                    logger: logger)
            }
            let stored = try await connection.query(
                "SELECT \(unescaped: Self.habitColumns) FROM habit WHERE accountId = \(accountID) ORDER BY id",
                logger: logger
            ).collect().map(Self.habit(from:))
            var planner = ImportPlanner(stored: stored, merge: merge)
            var items: [ImportPlan.Item] = []
            while let habit = try habits.next() {
                var here: [LocalDay: Entry] = [:]
                if let target = planner.target(of: habit) {
                    let rows = try await connection.query(
                        "SELECT \(unescaped: Self.entryColumns) FROM entry WHERE habitId = \(target.id)", logger: logger
                    ).collect()
                    for entry in try rows.compactMap(Self.entry(from:)) { here[entry.day] = entry }
                }
                guard let item = planner.item(habit, targetEntries: here) else { continue }
                if apply { try await Self.store(item, accountID: accountID, connection, logger: logger) }
                items.append(item.stored)
            }
            try planner.checkNamesFree()
            return ImportPlan(items: items, warnings: habits.warnings)
        }
    }

    /// The first key of the advisory lock imports take (the second is the account's id).
    static let importLockSpace: Int32 = 0x4D50_4931  // "MPI1"

    /// Writes one planned habit: created, or its first day moved back; then its new entries and their
    /// evidence, each in one statement however many there are.
    private static func store(
        _ item: ImportPlan.Item, accountID: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        let habitID: Int64
        if let existing = item.mergeInto {
            habitID = existing.id
            if let day = item.newCreatedDay {
                try await connection.query(
                    "UPDATE habit SET createdDay = \(day.description) WHERE id = \(habitID) AND accountId = \(accountID)",
                    logger: logger)
            }
        } else {
            habitID = try await insertHabit(item.habit.habit, accountID: accountID, on: connection, logger: logger)
        }
        let days = item.entriesOnePerDay(habitID: habitID)
        guard !days.isEmpty else { return }
        let entries = days.map(\.entry)
        // PostgresNIO sends no arrays of optionals: a NULL is a flag beside a placeholder.
        let rows = try await connection.query(
            """
            INSERT INTO entry (habitId, day, status, value, source, note, recordedAt, zone)
            SELECT \(habitID), day, status, CASE WHEN hasValue THEN value END, source,
                CASE WHEN hasNote THEN note END, recordedAt, zone
            FROM unnest(\(entries.map(\.day.description)), \(entries.map(\.status.rawValue)),
                \(entries.map { $0.value ?? 0 }), \(entries.map { $0.value != nil }), \(entries.map(\.source.rawValue)),
                \(entries.map { $0.note ?? "" }), \(entries.map { $0.note != nil }), \(entries.map(\.recordedAt)),
                \(entries.map(\.zone)))
                AS t(day, status, value, hasValue, source, note, hasNote, recordedAt, zone)
            RETURNING id, day
            """, logger: logger
        ).collect()
        let proofs = days.filter { !$0.evidence.isEmpty }
        guard !proofs.isEmpty else { return }
        var entryIDs: [String: Int64] = [:]
        for row in rows {
            let (id, day) = try row.decode((Int64, String).self)
            entryIDs[day] = id
        }
        let evidence = proofs.flatMap { day in
            day.evidence.map { (entryIDs[day.entry.day.description] ?? 0, PhotoEvidence($0)) }
        }
        try await connection.query(
            """
            INSERT INTO evidence (entryId, sha256, perceptualHash, captureTime, verdict, confidence, features,
                recordedAt)
            SELECT entryId, sha256, perceptualHash, CASE WHEN hasCaptureTime THEN captureTime END, verdict,
                confidence, features, recordedAt
            FROM unnest(\(evidence.map(\.0)), \(evidence.map(\.1.sha256)), \(evidence.map(\.1.perceptualHash)),
                \(evidence.map { $0.1.captureTime ?? "" }), \(evidence.map { $0.1.captureTime != nil }),
                \(evidence.map(\.1.verdict)), \(evidence.map(\.1.confidence)), \(evidence.map(\.1.features)),
                \(evidence.map(\.1.recordedAt)))
                AS t(entryId, sha256, perceptualHash, captureTime, hasCaptureTime, verdict, confidence, features,
                    recordedAt)
            """, logger: logger)
    }
}
