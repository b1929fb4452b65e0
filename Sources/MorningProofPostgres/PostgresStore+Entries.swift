import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Habits' days, as `AppDatabase`'s: one entry per habit and day (`UNIQUE (habitId, day)`), what
/// recording does decided by `RecordOutcome.of` (a manual entry wins over an automatic one), and
/// progress judged by `HabitTimeline`.
extension PostgresStore {
    /// Every entry of one habit, oldest first; another account's habit is not found.
    public func entries(habitID: Int64) async throws -> [Entry] {
        try await transaction(.snapshot) { connection in
            guard try await Self.ownHabit(connection, id: habitID, accountID: accountID, logger: logger) != nil
            else { throw StoreError.noHabit(habitID) }
            return try await connection.query(
                "SELECT \(unescaped: Self.entryColumns) FROM entry WHERE habitId = \(habitID) ORDER BY day",
                logger: logger
            ).collect().compactMap(Self.entry(from:))
        }
    }

    /// The entry of a habit on a day, if any; another account's habit is not found.
    public func entry(habitID: Int64, day: LocalDay) async throws -> Entry? {
        try await transaction(.snapshot) { connection in
            guard try await Self.ownHabit(connection, id: habitID, accountID: accountID, logger: logger) != nil
            else { throw StoreError.noHabit(habitID) }
            return try await Self.entry(connection, habitID: habitID, day: day, logger: logger)
        }
    }

    public func entries(on day: LocalDay) async throws -> [Int64: Entry] {
        try await transaction(.statement) { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.qualified(Self.entryColumns, as: "entry"))
                FROM entry JOIN habit ON habit.id = entry.habitId
                WHERE habit.accountId = \(accountID) AND entry.day = \(day.description)
                """, logger: logger
            ).collect()
            var entries: [Int64: Entry] = [:]
            for row in rows { if let entry = try Self.entry(from: row) { entries[entry.habitID] = entry } }
            return entries
        }
    }

    /// Records an entry, at most one per habit and day, as `RecordOutcome.of` decides.
    @discardableResult
    public func record(_ entry: Entry) async throws -> RecordOutcome {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, entry.habitID, accountID: accountID, logger: logger)
            return try await Self.record(entry, connection, logger: logger)
        }
    }

    public func record(_ entries: [Entry]) async throws -> [RecordOutcome] {
        guard !entries.isEmpty else { return [] }
        return try await transaction(.writing) { connection in
            for habitID in Set(entries.map(\.habitID)).sorted() {
                try await Self.requireOwnHabit(connection, habitID, accountID: accountID, logger: logger)
            }
            var outcomes: [RecordOutcome] = []
            for entry in entries { outcomes.append(try await Self.record(entry, connection, logger: logger)) }
            return outcomes
        }
    }

    /// Removes a habit's entry and check-in answer of a day in one transaction (`undo`, a check-in's reset).
    @discardableResult
    public func clearDay(habitID: Int64, day: LocalDay) async throws -> ClearedDay {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, habitID, accountID: accountID, logger: logger)
            return try await Self.clearDay(connection, habitID: habitID, day: day, logger: logger)
        }
    }

    /// The same inside a transaction that holds the habit's row.
    static func clearDay(_ connection: PostgresConnection, habitID: Int64, day: LocalDay, logger: Logger) async throws
        -> ClearedDay
    {
        let entry = try await Self.entry(connection, habitID: habitID, day: day, logger: logger)
        let answer = try await Self.storedAnswer(connection, habitID: habitID, day: day, logger: logger)
        try await connection.query(
            "DELETE FROM entry WHERE habitId = \(habitID) AND day = \(day.description)", logger: logger)
        try await connection.query(
            "DELETE FROM checkinAnswer WHERE habitId = \(habitID) AND day = \(day.description)", logger: logger)
        return ClearedDay(entry: entry, answer: answer)
    }

    /// Every habit's progress as of `today`, each judged from its creation day (or today, for a
    /// habit created "later" by a clock change) with the account's travel days and week start. With
    /// a `need` short of `.all`, a habit whose stored state (`PostgresStore+HabitState`) is sound is
    /// judged only from a little before that state's last day (or from what `need` asks); the others
    /// are judged whole, and their states rebuilt afterwards. One snapshot: the entries, the states,
    /// the zone changes and the week start agree.
    public func progress(of habits: [Habit], today: LocalDay, need: HistoryNeed) async throws -> [HabitProgress] {
        guard !habits.isEmpty else { return [] }
        let (progress, unsound) = try await transaction(.snapshot) { connection in
            let context = try await Self.stateContext(connection, accountID: accountID, logger: logger)
            let stored =
                need == .all
                ? [:] : try await Self.storedCheckpoints(connection, of: habits, context: context, logger: logger)
            return try await Self.judge(
                habits, today: today, need: need, stored: stored, context: context, connection, accountID: accountID,
                logger: logger)
        }
        await rebuildHabitStates(unsound)
        return progress
    }

    /// Each habit's progress from its trusted checkpoint in `stored` (else its whole history) and its
    /// entries read in one statement; with the habits that had no trusted checkpoint (to rebuild) when
    /// `need` is short of `.all`.
    static func judge(
        _ habits: [Habit], today: LocalDay, need: HistoryNeed, stored: [Int64: HabitCheckpoint],
        context: HabitStateContext, _ connection: PostgresConnection, accountID: Int64, logger: Logger
    ) async throws -> (progress: [HabitProgress], unsound: [Int64]) {
        let readings = habits.map {
            HabitReading($0, today: today, need: need, checkpoint: stored[$0.id], context: context)
        }
        let recorded = try await dayStatuses(
            connection, zip(habits, readings).map { ($0.id, $1.origin) }, accountID: accountID, logger: logger)
        let progress = zip(habits, readings).map {
            HabitProgress(habit: $0, timeline: $1.timeline(recorded: recorded[$0.id] ?? []))
        }
        return (progress, need == .all ? [] : habits.map(\.id).filter { stored[$0] == nil })
    }

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
