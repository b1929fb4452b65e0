import Foundation
import GRDB
import GRDBSQLite
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
    /// Every entry of one habit, oldest first.
    public func entries(habitID: Int64) async throws -> [Entry] {
        try await asyncRead { db in
            try requireOwnHabit(db, habitID)
            return try EntryRecord.filter(EntryRecord.Columns.habitId == habitID).order(EntryRecord.Columns.day).fetchAll(db)
                .compactMap(\.entry)
        }
    }

    /// The status of every recorded day, by habit id and day: what streaks are computed from.
    public func dayStatuses(habitID: Int64? = nil) throws -> [Int64: [(day: LocalDay, status: EntryStatus)]] {
        try read { db in
            // Every habit of the account, or one of them (another account's reads as none).
            let statement = try db.cachedStatement(
                sql: "SELECT habitId, day, status = 'done' FROM entry WHERE habitId IN "
                    + "(SELECT id FROM habit WHERE accountId = ?\(habitID == nil ? "" : " AND id = ?"))")
            statement.arguments = StatementArguments([accountID] + (habitID.map { [$0] } ?? []))
            var result: [Int64: [(day: LocalDay, status: EntryStatus)]] = [:]
            try Self.scanDayStatuses(statement, db) { result[$0, default: []].append(($1, $2)) }
            return result
        }
    }

    /// The status of each recorded day of one habit, from `first` on (all when nil).
    static func dayStatuses(_ db: Database, habitID: Int64, from first: LocalDay?) throws
        -> [(day: LocalDay, status: EntryStatus)]
    {
        let statement = try db.cachedStatement(
            sql: "SELECT habitId, day, status = 'done' FROM entry WHERE habitId = ? AND day >= ?")
        statement.arguments = [habitID, first?.description ?? ""]
        var result: [(day: LocalDay, status: EntryStatus)] = []
        try scanDayStatuses(statement, db) { result.append(($1, $2)) }
        return result
    }

    /// Steps through rows of (habit id, day, done) with SQLite's C API, so that five years of
    /// thirty habits load in milliseconds (GRDB's row decoding cost more than the scan).
    private static func scanDayStatuses(
        _ statement: Statement, _ db: Database, _ body: (Int64, LocalDay, EntryStatus) -> Void
    ) throws {
        let sqlite = statement.sqliteStatement
        defer { sqlite3_reset(sqlite) }
        while true {
            let code = sqlite3_step(sqlite)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            guard let text = sqlite3_column_text(sqlite, 1), sqlite3_column_bytes(sqlite, 1) == 10,
                let day = parseDay(UnsafeRawBufferPointer(start: text, count: 10))
            else { continue }
            body(sqlite3_column_int64(sqlite, 0), day, sqlite3_column_int(sqlite, 2) == 1 ? .done : .skipped)
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
    public func entry(habitID: Int64, day: LocalDay) async throws -> Entry? {
        try await asyncRead { db in
            try requireOwnHabit(db, habitID)
            return try Self.entry(db, habitID: habitID, day: day)
        }
    }

    public func entries(on day: LocalDay) async throws -> [Int64: Entry] {
        let account = accountID
        return try await asyncRead { db in
            let entries = try EntryRecord.fetchAll(
                db,
                sql: """
                    SELECT entry.* FROM entry JOIN habit ON habit.id = entry.habitId
                    WHERE habit.accountId = ? AND entry.day = ?
                    """, arguments: [account, day.description])
            return Dictionary(entries.compactMap(\.entry).map { ($0.habitID, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Records an entry, at most one per habit and day. A manual entry always wins over an automatic one.
    @discardableResult
    public func record(_ entry: Entry) async throws -> RecordOutcome {
        try await asyncWrite { db in
            try requireOwnHabit(db, entry.habitID)
            return try Self.record(entry, in: db)
        }
    }

    public func record(_ entries: [Entry]) async throws -> [RecordOutcome] {
        guard !entries.isEmpty else { return [] }
        return try await asyncWrite { db in
            for habitID in Set(entries.map(\.habitID)) { try requireOwnHabit(db, habitID) }
            return try entries.map { try Self.record($0, in: db) }
        }
    }

    /// The same, inside a transaction another module already holds.
    static func record(_ entry: Entry, in db: Database) throws -> RecordOutcome {
        let existing = try EntryRecord.of(habitID: entry.habitID, day: entry.day).fetchOne(db)
        let outcome = RecordOutcome.of(recording: entry, over: existing?.entry)
        switch outcome {
        case .unchanged, .keptManual, .superseded: return outcome
        case .replaced:
            try EntryRecord(entry, id: existing?.id).update(db, columns: EntryRecord.Columns.replaced)
        case .recorded:
            var record = EntryRecord(entry)
            try record.insert(db)
        }
        return outcome
    }

    /// Removes the entry of a habit on a day; returns the removed entry, if there was one.
    @discardableResult
    public func removeEntry(habitID: Int64, day: LocalDay) throws -> Entry? {
        try write { db in
            try requireOwnHabit(db, habitID)
            let existing = try Self.entry(db, habitID: habitID, day: day)
            try EntryRecord.of(habitID: habitID, day: day).deleteAll(db)
            return existing
        }
    }

    /// The entry of a habit's day, inside a transaction.
    static func entry(_ db: Database, habitID: Int64, day: LocalDay) throws -> Entry? {
        try EntryRecord.of(habitID: habitID, day: day).fetchOne(db)?.entry
    }
}

extension AppDatabase: EntryStore {}
