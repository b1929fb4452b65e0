import Foundation
import GRDB
import GRDBSQLite
import MorningProofCore
import MorningProofStoreContract

/// The status of each recorded day, read with SQLite's C API: what streaks are judged from, for the
/// entry store's `progress` and the habit-state cache.
extension AppDatabase {
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
}
