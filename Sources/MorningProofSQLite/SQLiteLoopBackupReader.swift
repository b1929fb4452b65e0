import Foundation
import GRDB
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract

/// Reads a Loop Habit Tracker backup: an SQLite file with the tables `Habits` and `Repetitions`, of any
/// schema version Loop wrote (a column an older version lacks reads as absent). Opened read-only.
/// Here because the file is SQLite and GRDB is this module's alone; the import service takes it as
/// Interchange's `LoopBackupReader`, and no store protocol reads files.
public struct SQLiteLoopBackupReader: LoopBackupReader {
    public init() {}

    /// `label` names the file in messages and warnings. A file that is not such a backup is a data error.
    public func read(path: String, label: String) throws -> LoopBackup {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try Self.read(db, label: label) }
        } catch let error as DatabaseError {
            throw StoreError(
                .badFile, value: label,
                "\(label): not a Loop Habit Tracker backup (\(error.message ?? "SQLite error \(error.resultCode)"))")
        }
    }

    static func read(_ db: Database, label: String) throws -> LoopBackup {
        let tables = Set(try String.fetchAll(db, sql: "SELECT lower(name) FROM sqlite_master WHERE type = 'table'"))
        guard tables.contains("habits"), tables.contains("repetitions") else {
            throw StoreError(
                .badFile, value: label, "\(label): not a Loop Habit Tracker backup (no Habits and Repetitions tables)")
        }
        let habitColumns = [
            "id", "position", "name", "question", "description", "freq_num", "freq_den", "archived", "type",
            "target_type", "target_value", "unit", "reminder_hour", "reminder_min",
        ]
        let habits = try rows(db, table: "Habits", columns: habitColumns).map { row in
            let id = row.int64("id") ?? 0
            return LoopBackup.Habit(
                id: id, position: row.int("position"), name: row.text("name"), question: row.text("question"),
                description: row.text("description"), numerator: row.int("freq_num"), denominator: row.int("freq_den"),
                archived: (row.int("archived") ?? 0) != 0, type: row.int("type") ?? 0,
                targetType: row.int("target_type") ?? 0, targetValue: row.double("target_value") ?? 0,
                unit: row.text("unit"), reminderHour: row.int("reminder_hour"), reminderMinute: row.int("reminder_min"),
                origin: .init(file: label, place: .path("Habits id \(id)")))
        }
        let repetitions = try rows(db, table: "Repetitions", columns: ["id", "habit", "timestamp", "value", "notes"])
            .map { row in
                LoopBackup.Repetition(
                    habitID: row.int64("habit"), timestamp: row.int64("timestamp"),
                    // Before Loop's schema 16 a repetition had no value: every row was a check.
                    value: row.isNull("value") ? LoopRules.yesManual : row.int("value"), notes: row.text("notes"),
                    origin: .init(file: label, place: .path("Repetitions id \(row.int64("id") ?? 0)")))
            }
        return LoopBackup(habits: habits, repetitions: repetitions)
    }

    /// A row's values by column, converted without trusting their type: a text where a number belongs
    /// reads as absent (GRDB's typed subscripts would stop the program).
    struct Values {
        var values: [String: DatabaseValue]

        func int(_ column: String) -> Int? { values[column].flatMap { Int.fromDatabaseValue($0) } }
        func int64(_ column: String) -> Int64? { values[column].flatMap { Int64.fromDatabaseValue($0) } }
        func double(_ column: String) -> Double? { values[column].flatMap { Double.fromDatabaseValue($0) } }
        func text(_ column: String) -> String? { values[column].flatMap { String.fromDatabaseValue($0) } }
        func isNull(_ column: String) -> Bool { values[column]?.isNull ?? true }
    }

    /// Every row of `table` with `columns`, a column the table lacks reading as NULL.
    private static func rows(_ db: Database, table: String, columns: [String]) throws -> [Values] {
        let present = Set(
            try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map {
                (($0["name"] as String?) ?? "").lowercased()
            })
        let list = columns.map { present.contains($0) ? "\"\($0)\"" : "NULL AS \"\($0)\"" }.joined(separator: ", ")
        return try Row.fetchAll(db, sql: "SELECT \(list) FROM \"\(table)\" ORDER BY rowid").map { row in
            Values(values: Dictionary(uniqueKeysWithValues: columns.map { ($0, row[$0] as DatabaseValue) }))
        }
    }
}
