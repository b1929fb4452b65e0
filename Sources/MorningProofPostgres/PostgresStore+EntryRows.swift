import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Entries as rows: the columns read, and reading and recording one inside a transaction that holds
/// its habit's row. Shared by the entry, check-in, proof and notification stores and by status.
extension PostgresStore {
    /// The columns `entry(from:)` reads, in its order.
    static let entryColumns = "habitId, day, status, value, source, note, recordedAt, zone"

    /// `columns` (a comma-separated list) with each name prefixed by `table`.
    static func qualified(_ columns: String, as table: String) -> String {
        columns.split(separator: ",").map { "\(table)." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .joined(separator: ", ")
    }

    /// The entry of a row, or nil for one no release of this program writes.
    static func entry(from row: PostgresRow) throws -> Entry? {
        let (habitID, day, status, value, source, note, recordedAt, zone) = try row.decode(
            (Int64, String, String, Double?, String, String?, Date, String).self)
        return Entry.stored(
            habitID: habitID, day: day, status: status, value: value, source: source, note: note,
            recordedAt: recordedAt, zone: zone)
    }

    /// The entry in `columns` from index `first` on (`entryColumns`), or nil when they are null (no
    /// entry) or hold one no release of this program writes.
    static func entry(_ columns: PostgresRandomAccessRow, from first: Int) throws -> Entry? {
        guard let habitID = try columns[first].decode(Int64?.self) else { return nil }
        func column<T: PostgresDecodable>(_ offset: Int, _ type: T.Type) throws -> T {
            try columns[first + offset].decode(T.self)
        }
        let (day, status, value, source) = (
            try column(1, String.self), try column(2, String.self), try column(3, Double?.self),
            try column(4, String.self)
        )
        let (note, recordedAt, zone) = (
            try column(5, String?.self), try column(6, Date.self), try column(7, String.self)
        )
        return Entry.stored(
            habitID: habitID, day: day, status: status, value: value, source: source, note: note,
            recordedAt: recordedAt, zone: zone)
    }

    static func entry(_ connection: PostgresConnection, habitID: Int64, day: LocalDay, logger: Logger) async throws
        -> Entry?
    {
        try await connection.query(entryQuery(habitID: habitID, day: day), logger: logger).collect().first
            .flatMap(entry(from:))
    }

    /// A habit's entry of a day: the read before every write of a day (a hot query, `PostgresPlanTests`).
    static func entryQuery(habitID: Int64, day: LocalDay) -> PostgresQuery {
        "SELECT \(unescaped: entryColumns) FROM entry WHERE habitId = \(habitID) AND day = \(day.description)"
    }

    /// Records `entry` inside a transaction that holds its habit's row.
    static func record(_ entry: Entry, _ connection: PostgresConnection, logger: Logger) async throws -> RecordOutcome {
        let existing = try await Self.entry(connection, habitID: entry.habitID, day: entry.day, logger: logger)
        let outcome = RecordOutcome.of(recording: entry, over: existing)
        switch outcome {
        case .unchanged, .keptManual, .superseded: return outcome
        case .replaced:
            try await connection.query(
                """
                UPDATE entry SET status = \(entry.status.rawValue), value = \(entry.value),
                    source = \(entry.source.rawValue), note = \(entry.note), recordedAt = \(entry.recordedAt),
                    zone = \(entry.zone)
                WHERE habitId = \(entry.habitID) AND day = \(entry.day.description)
                """, logger: logger)
        case .recorded:
            try await connection.query(
                """
                INSERT INTO entry (habitId, day, status, value, source, note, recordedAt, zone)
                VALUES (\(entry.habitID), \(entry.day.description), \(entry.status.rawValue), \(entry.value),
                    \(entry.source.rawValue), \(entry.note), \(entry.recordedAt), \(entry.zone))
                """, logger: logger)
        }
        return outcome
    }
}
