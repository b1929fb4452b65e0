import Foundation
import GRDB
import MorningProofCore

/// What recording an entry did.
public enum RecordOutcome: Equatable, Sendable {
    /// A new entry was stored.
    case recorded
    /// The day already held an entry, which was replaced (a skip turned into done).
    case replaced(previous: EntryStatus)
    /// The day already held the same status: nothing changed.
    case unchanged
    /// The day holds a manual entry, which always wins over an automatic one: nothing changed.
    case keptManual
}

extension AppDatabase {
    /// Every entry of one habit, oldest first.
    public func entries(habitID: Int64) throws -> [Entry] {
        try read { db in try Self.fetchEntries(db, sql: "WHERE habitId = ? ORDER BY day", [habitID]) }
    }

    /// The status of every recorded day, by habit id and day: what streaks are computed from.
    /// Reads only those columns, so that five years of thirty habits load in milliseconds.
    public func dayStatuses(habitID: Int64? = nil) throws -> [Int64: [LocalDay: EntryStatus]] {
        try read { db in
            let filter = habitID == nil ? "" : "WHERE habitId = ?"
            let rows = try Row.fetchCursor(
                db, sql: "SELECT habitId, day, status = 'done' FROM entry \(filter)",
                arguments: StatementArguments(habitID.map { [$0] } ?? []))
            var result: [Int64: [LocalDay: EntryStatus]] = [:]
            while let row = try rows.next() {
                guard let day = Self.parseDay(row[1]) else { continue }
                result[row[0], default: [:]][day] = (row[2] as Bool) ? .done : .skipped
            }
            return result
        }
    }

    /// Parses the stored `YYYY-MM-DD` text byte by byte (the generic parser is too slow for bulk reads).
    static func parseDay(_ text: String) -> LocalDay? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        var digits = [Int](repeating: 0, count: 10)
        for i in [0, 1, 2, 3, 5, 6, 8, 9] {
            guard bytes[i] >= 48 && bytes[i] <= 57 else { return nil }
            digits[i] = Int(bytes[i]) - 48
        }
        return LocalDay(
            year: digits[0] * 1000 + digits[1] * 100 + digits[2] * 10 + digits[3], month: digits[5] * 10 + digits[6],
            day: digits[8] * 10 + digits[9])
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
        if let existing {
            if existing.status == entry.status { return .unchanged }
            if existing.source == .manual && entry.source != .manual { return .keptManual }
            try db.execute(
                sql: """
                    UPDATE entry SET status = ?, value = ?, source = ?, note = ?, recordedAt = ?, zone = ?
                    WHERE habitId = ? AND day = ?
                    """,
                arguments: [
                    entry.status.rawValue, entry.value, entry.source.rawValue, entry.note, entry.recordedAt, entry.zone,
                    entry.habitID, entry.day.description,
                ])
            return .replaced(previous: existing.status)
        }
        try db.execute(
            sql: """
                INSERT INTO entry (habitId, day, status, value, source, note, recordedAt, zone)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.habitID, entry.day.description, entry.status.rawValue, entry.value, entry.source.rawValue,
                entry.note, entry.recordedAt, entry.zone,
            ])
        return .recorded
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
            guard let day = Self.parseDay(row["day"]), let status = EntryStatus(rawValue: row["status"]) else {
                return nil
            }
            return Entry(
                habitID: row["habitId"], day: day, status: status, value: row["value"],
                source: EntrySource(rawValue: row["source"]) ?? .manual, note: row["note"],
                recordedAt: row["recordedAt"], zone: row["zone"])
        }
    }
}
