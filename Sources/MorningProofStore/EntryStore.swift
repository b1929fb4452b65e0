import Foundation
import GRDB
import GRDBSQLite
import MorningProofCore

extension AppDatabase {
    /// Every entry of one habit, oldest first.
    public func entries(habitID: Int64) throws -> [Entry] {
        try read { db in try Self.fetchEntries(db, sql: "WHERE habitId = ? ORDER BY day", [habitID]) }
    }

    /// The status of every recorded day, by habit id and day: what streaks are computed from.
    /// One sequential scan read through SQLite's C API, so that five years of thirty habits load
    /// in milliseconds (GRDB's row decoding cost more than the scan).
    public func dayStatuses(habitID: Int64? = nil) throws -> [Int64: [(day: LocalDay, status: EntryStatus)]] {
        try read { db in
            let statement = try db.makeStatement(
                sql: "SELECT habitId, day, status = 'done' FROM entry \(habitID == nil ? "" : "WHERE habitId = ?")")
            if let habitID { statement.arguments = [habitID] }
            let sqlite = statement.sqliteStatement
            var result: [Int64: [(day: LocalDay, status: EntryStatus)]] = [:]
            while true {
                let code = sqlite3_step(sqlite)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code),
                        message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
                guard let text = sqlite3_column_text(sqlite, 1), sqlite3_column_bytes(sqlite, 1) == 10,
                    let day = Self.parseDay(UnsafeRawBufferPointer(start: text, count: 10))
                else { continue }
                result[sqlite3_column_int64(sqlite, 0), default: []].append(
                    (day, sqlite3_column_int(sqlite, 2) == 1 ? .done : .skipped))
            }
            return result
        }
    }

    /// Parses `YYYY-MM-DD` bytes without making a string.
    static func parseDay(_ raw: UnsafeRawBufferPointer) -> LocalDay? {
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                let digit = Int(raw[i]) &- 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard raw.count == 10, let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else {
            return nil
        }
        return LocalDay(year: year, month: month, day: day)
    }

    /// The entry of a habit on a day, if any.
    public func entry(habitID: Int64, day: LocalDay) throws -> Entry? {
        try read { db in
            try Self.fetchEntries(db, sql: "WHERE habitId = ? AND day = ?", [habitID, day.description]).first
        }
    }

    /// Records an entry, at most one per habit and day. A manual entry always wins over an automatic one.
    @discardableResult
    public func record(_ entry: Entry) throws -> RecordOutcome {
        try write { db in try Self.record(entry, in: db) }
    }

    /// The same, inside a transaction another module already holds.
    static func record(_ entry: Entry, in db: Database) throws -> RecordOutcome {
        let existing = try fetchEntries(
            db, sql: "WHERE habitId = ? AND day = ?", [entry.habitID, entry.day.description]
        ).first
        let outcome = RecordOutcome.of(recording: entry, over: existing)
        switch outcome {
        case .unchanged, .keptManual: return outcome
        case .replaced:
            try db.execute(
                sql: """
                    UPDATE entry SET status = ?, value = ?, source = ?, note = ?, recordedAt = ?, zone = ?
                    WHERE habitId = ? AND day = ?
                    """,
                arguments: [
                    entry.status.rawValue, entry.value, entry.source.rawValue, entry.note, entry.recordedAt, entry.zone,
                    entry.habitID, entry.day.description,
                ])
        case .recorded:
            try db.execute(
                sql: """
                    INSERT INTO entry (habitId, day, status, value, source, note, recordedAt, zone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    entry.habitID, entry.day.description, entry.status.rawValue, entry.value, entry.source.rawValue,
                    entry.note, entry.recordedAt, entry.zone,
                ])
        }
        return outcome
    }

    /// Removes the entry of a habit on a day; returns the removed entry, if there was one.
    @discardableResult
    public func removeEntry(habitID: Int64, day: LocalDay) throws -> Entry? {
        try write { db in
            let existing = try Self.fetchEntries(db, sql: "WHERE habitId = ? AND day = ?", [habitID, day.description])
                .first
            try db.execute(
                sql: "DELETE FROM entry WHERE habitId = ? AND day = ?", arguments: [habitID, day.description])
            return existing
        }
    }

    static func fetchEntries(_ db: Database, sql: String, _ arguments: StatementArguments) throws -> [Entry] {
        try Row.fetchAll(
            db, sql: "SELECT habitId, day, status, value, source, note, recordedAt, zone FROM entry \(sql)",
            arguments: arguments
        ).compactMap { row in
            guard let day = LocalDay(row["day"] as String), let status = EntryStatus(rawValue: row["status"]) else {
                return nil
            }
            return Entry(
                habitID: row["habitId"], day: day, status: status, value: row["value"],
                source: EntrySource(rawValue: row["source"]) ?? .manual, note: row["note"],
                recordedAt: row["recordedAt"], zone: row["zone"])
        }
    }
}
