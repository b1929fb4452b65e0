import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Migration "v12-entry-changes": the instant a person last acted on a day of a habit (done, skip,
/// undo, the check-in answer), which last writer wins (`LastWriter`) reads. An undo leaves its
/// instant here, so that an older `done` sent later from another device cannot bring the day back.
/// Part of a landed migration once released: never edit it then, add a new migration.
enum EntryChangeSchema {
    static func create(_ db: Database) throws {
        try db.create(table: "entryChange") { t in
            t.column("habitId", .integer).notNull().references("habit", onDelete: .cascade)
            t.column("day", .text).notNull()
            t.column("changedAt", .datetime).notNull()
            t.primaryKey(["habitId", "day"])
        }
    }
}

/// A person's actions on a day under last writer wins: the rule is `LastWriter.loses`, applied with
/// these inside the writing transaction (`recordAction`, `clearDay(at:)`, `answerCheckin`), so that
/// two devices' actions are decided on what is stored.
extension AppDatabase {
    /// Whether an action at `instant` loses to what the day of the habit holds (`LastWriter.loses`).
    static func loses(_ db: Database, habitID: Int64, day: LocalDay, at instant: Date) throws -> Bool {
        let arguments: StatementArguments = [habitID, day.description]
        return LastWriter.loses(
            instant, entry: try entry(db, habitID: habitID, day: day),
            answeredAt: try Date.fetchOne(
                db, sql: "SELECT answeredAt FROM checkinAnswer WHERE habitId = ? AND day = ?", arguments: arguments),
            lastChange: try Date.fetchOne(
                db, sql: "SELECT changedAt FROM entryChange WHERE habitId = ? AND day = ?", arguments: arguments))
    }

    /// Notes `instant` as the latest action on the day (the later of it and the one noted before).
    static func noteChange(_ db: Database, habitID: Int64, day: LocalDay, at instant: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO entryChange (habitId, day, changedAt) VALUES (?, ?, ?)
                ON CONFLICT (habitId, day) DO UPDATE SET changedAt = max(changedAt, excluded.changedAt)
                """, arguments: [habitID, day.description, instant])
    }
}
