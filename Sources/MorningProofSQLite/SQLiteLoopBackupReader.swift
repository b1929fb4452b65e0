import Foundation
import GRDB
import GRDBSQLite
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract

/// Reads a Loop Habit Tracker backup: an SQLite file with the tables `Habits` and `Repetitions`, of any
/// schema version Loop wrote (a column an older version lacks reads as absent). Here because the file
/// is SQLite and GRDB is this module's alone; the import service takes it as Interchange's
/// `LoopBackupReader`, and no store protocol reads files.
///
/// The file may come from anyone (`POST /api/import`), so it is opened as SQLite's advice for
/// untrusted databases says: read-only, `trusted_schema=OFF` (views, triggers and the schema's
/// expressions call no function with side effects), `cell_size_check=ON`, no memory map, no string
/// or blob longer than `maximumTextBytes`, and a `quick_check` before anything is read. Its habits are
/// handed over one at a time (`ImportStream`), each with its repetitions, so that memory holds one
/// habit's repetitions and not the file's.
public struct SQLiteLoopBackupReader: LoopBackupReader {
    /// The most habits a backup may hold: far above anyone's, and a bound on what is read at once.
    public static let maximumHabits = 5_000
    /// The most repetitions one habit may hold: Loop keeps one a day, so 100 years of them.
    public static let maximumRepetitionsPerHabit = 36_600
    /// The longest text (a name, a note) or blob a backup may hold, in bytes: longer is no Loop's.
    public static let maximumTextBytes = 64 << 10

    public init() {}

    /// `label` names the file in messages and warnings. A file that is not such a backup, is damaged,
    /// or passes a bound is a data error, found before any habit is handed over (or, for a bound of one
    /// habit, when its turn comes: the import's transaction then stores nothing).
    public func habits(path: String, label: String, context: ImportContext) throws -> ImportStream {
        let (queue, source) = try Self.translating(label) { try Self.open(path, label: label) }
        let (habits, found) = try Self.translating(label) {
            try queue.inDatabase { db in try Self.habits(db, source: source, label: label) }
        }
        return LoopImport.stream(habits: habits, found: found, context: context) { habit in
            try Self.translating(label) {
                try queue.inDatabase { db in try Self.repetitions(of: habit, db, source: source, label: label) }
            }
        }
    }

    /// Where the repetitions are read from: the file's own table when an index leads with `habit`,
    /// else a copy with one in SQLite's temporary files (one habit's rows are then found without
    /// reading the whole table each time). Either way one row's `loopRow` is its rowid in the file.
    struct Source {
        var table: String
        var columns: Set<String>
    }

    /// Opens the file read-only with the untrusted-file settings, checks it, and finds its tables.
    static func open(_ path: String, label: String) throws -> (DatabaseQueue, Source) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, Int32(maximumTextBytes))
            try db.execute(
                sql: "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0; "
                    + "PRAGMA temp_store = FILE")
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let source = try queue.inDatabase { db -> Source in
            let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(10)")
            guard problems == ["ok"] else {
                throw StoreError(
                    .badFile, value: label,
                    "\(label): not a readable Loop backup (the file is damaged: \(problems.first ?? "no answer"))")
            }
            // Loop writes tables and indexes, nothing that runs SQL of the file's own when it is read.
            if let code = try String.fetchOne(
                db,
                sql: """
                    SELECT type || ' ' || name FROM sqlite_master
                    WHERE type IN ('view', 'trigger') OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL%')
                    UNION ALL
                    SELECT 'generated column ' || name FROM pragma_table_xinfo('Habits') WHERE hidden > 1
                    UNION ALL
                    SELECT 'generated column ' || name FROM pragma_table_xinfo('Repetitions') WHERE hidden > 1
                    LIMIT 1
                    """)
            {
                throw StoreError(
                    .badFile, value: label,
                    "\(label): not a Loop Habit Tracker backup (it holds a \(code), which Loop never writes)")
            }
            let tables = Set(try String.fetchAll(db, sql: "SELECT lower(name) FROM sqlite_master WHERE type = 'table'"))
            guard tables.contains("habits"), tables.contains("repetitions") else {
                throw StoreError(
                    .badFile, value: label,
                    "\(label): not a Loop Habit Tracker backup (no Habits and Repetitions tables)")
            }
            return try repetitionsSource(db)
        }
        return (queue, source)
    }

    /// The repetitions' table, or its indexed copy (see `Source`).
    private static func repetitionsSource(_ db: Database) throws -> Source {
        let columns = try self.columns(db, table: "Repetitions")
        let indexed =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT count(*) > 0 FROM pragma_index_list('Repetitions') AS list,
                        pragma_index_info(list.name) AS info
                    WHERE list.partial = 0 AND info.seqno = 0 AND lower(info.name) = 'habit'
                    """) ?? false
        if indexed || !columns.contains("habit") { return Source(table: "main.\"Repetitions\"", columns: columns) }
        let list = ["id", "habit", "timestamp", "value", "notes"].filter(columns.contains).map { "\"\($0)\"" }
        try db.execute(
            sql: """
                CREATE TEMP TABLE loopRepetitions AS
                    SELECT rowid AS loopRowID, \(list.joined(separator: ", ")) FROM main."Repetitions" ORDER BY rowid;
                CREATE INDEX temp.loopRepetitionsByHabit ON loopRepetitions(habit, loopRowID);
                """)
        return Source(table: "temp.loopRepetitions", columns: columns)
    }

    /// The backup's habits, and a warning for each repetition of none of them.
    private static func habits(_ db: Database, source: Source, label: String) throws -> (
        [LoopBackup.Habit], ImportBatch
    ) {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"Habits\"") ?? 0
        guard count <= maximumHabits else {
            throw StoreError(
                .badFile, value: label,
                "\(label): not a Loop Habit Tracker backup (\(count) habits, more than the \(maximumHabits) an import takes)"
            )
        }
        let habitColumns = [
            "id", "position", "name", "question", "description", "freq_num", "freq_den", "archived", "type",
            "target_type", "target_value", "unit", "reminder_hour", "reminder_min",
        ]
        let present = try columns(db, table: "Habits")
        let habits = try rows(
            db, sql: "SELECT \(select(habitColumns, present)) FROM \"Habits\" ORDER BY rowid", habitColumns
        )
        .map { row in
            let id = row.int64("id") ?? 0
            return LoopBackup.Habit(
                id: id, position: row.int("position"), name: row.text("name"), question: row.text("question"),
                description: row.text("description"), numerator: row.int("freq_num"),
                denominator: row.int("freq_den"), archived: (row.int("archived") ?? 0) != 0,
                type: row.int("type") ?? 0, targetType: row.int("target_type") ?? 0,
                targetValue: row.double("target_value") ?? 0, unit: row.text("unit"),
                reminderHour: row.int("reminder_hour"), reminderMinute: row.int("reminder_min"),
                origin: .init(file: label, place: .path("Habits id \(id)")))
        }
        // The repetitions no habit owns: those a habit's own query (`repetitions(of:)`) never reads.
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS loopHabitIDs (id INTEGER PRIMARY KEY)")
        try db.execute(sql: "DELETE FROM temp.loopHabitIDs")
        for id in Set(habits.map(\.id)) {
            try db.execute(sql: "INSERT INTO temp.loopHabitIDs VALUES (?)", arguments: [id])
        }
        var found = ImportBatch()
        let unowned = source.columns.contains("habit") ? "NOT (\(owned))" : "1"
        let orphans = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(select(["id", "habit"], source.columns)) FROM \(source.table)
                WHERE \(unowned) ORDER BY \(rowID(source))
                """)
        while let row = try orphans.next() {
            let values = Values(values: ["id": row["id"], "habit": row["habit"]])
            LoopImport.noHabit(
                LoopBackup.Repetition(
                    habitID: values.int64("habit"), timestamp: nil, value: nil,
                    origin: .init(file: label, place: .path("Repetitions id \(values.int64("id") ?? 0)"))),
                batch: &found)
        }
        return (habits, found)
    }

    /// What makes a repetition its habit's: `habit` a number equal to the habit's id (a text is none).
    private static let owned = "typeof(habit) IN ('integer', 'real') AND habit IN (SELECT id FROM temp.loopHabitIDs)"

    /// The repetitions of one habit, in the file's order. Read as the store writes (inside its
    /// transaction), so each row is converted straight from its columns, with no row kept.
    private static func repetitions(
        of habit: LoopBackup.Habit, _ db: Database, source: Source, label: String
    ) throws -> [LoopBackup.Repetition] {
        guard source.columns.contains("habit") else { return [] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(select(["id", "timestamp", "value", "notes"], source.columns)) FROM \(source.table)
                WHERE habit = ? AND typeof(habit) IN ('integer', 'real') ORDER BY \(rowID(source))
                """, arguments: [habit.id])
        var repetitions: [LoopBackup.Repetition] = []
        while let row = try rows.next() {
            guard repetitions.count < maximumRepetitionsPerHabit else {
                throw StoreError(
                    .badFile, value: label,
                    "\(label): not a Loop Habit Tracker backup (habit \(habit.id) has more than \(maximumRepetitionsPerHabit) repetitions)"
                )
            }
            let value: DatabaseValue = row[2]
            repetitions.append(
                LoopBackup.Repetition(
                    habitID: habit.id, timestamp: Int64.fromDatabaseValue(row[1]),
                    // Before Loop's schema 16 a repetition had no value: every row was a check.
                    value: value.isNull ? LoopRules.yesManual : Int.fromDatabaseValue(value),
                    notes: String.fromDatabaseValue(row[3]),
                    origin: .init(file: label, place: .path("Repetitions id \(Int64.fromDatabaseValue(row[0]) ?? 0)"))))
        }
        return repetitions
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

    /// The lower-cased names of a table's columns.
    private static func columns(_ db: Database, table: String) throws -> Set<String> {
        Set(
            try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map {
                (($0["name"] as String?) ?? "").lowercased()
            })
    }

    /// `columns` for a SELECT, a column the table lacks reading as NULL.
    private static func select(_ columns: [String], _ present: Set<String>) -> String {
        columns.map { present.contains($0) ? "\"\($0)\"" : "NULL AS \"\($0)\"" }.joined(separator: ", ")
    }

    /// The column that orders `source`'s rows as the file holds them.
    private static func rowID(_ source: Source) -> String {
        source.table.hasPrefix("temp.") ? "loopRowID" : "rowid"
    }

    private static func rows(
        _ db: Database, sql: String, _ columns: [String], arguments: StatementArguments = StatementArguments()
    ) throws -> [Values] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            Values(values: Dictionary(uniqueKeysWithValues: columns.map { ($0, row[$0] as DatabaseValue) }))
        }
    }

    /// `body`, GRDB's errors made the file's: not a readable Loop backup.
    private static func translating<T>(_ label: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError(
                .badFile, value: label,
                "\(label): not a readable Loop backup (\(error.message ?? "SQLite error \(error.resultCode)"))")
        }
    }
}
