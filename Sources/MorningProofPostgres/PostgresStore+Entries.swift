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
                SELECT \(unescaped: Self.entryColumns.split(separator: ",").map { "entry." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
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
            let entry = try await Self.entry(connection, habitID: habitID, day: day, logger: logger)
            let answer = try await Self.storedAnswer(connection, habitID: habitID, day: day, logger: logger)
            try await connection.query(
                "DELETE FROM entry WHERE habitId = \(habitID) AND day = \(day.description)", logger: logger)
            try await connection.query(
                "DELETE FROM checkinAnswer WHERE habitId = \(habitID) AND day = \(day.description)", logger: logger)
            return ClearedDay(entry: entry, answer: answer)
        }
    }

    /// Every habit's progress as of `today`, each judged from its creation day (or today, for a
    /// habit created "later" by a clock change) with the account's travel days and week start.
    /// PostgreSQL keeps no stored state of the habits (SQLite's `habitState`): every habit is judged
    /// from its whole history, as `AppDatabase` does without a sound state, which covers any `need`.
    /// One snapshot: the entries, the zone changes and the week start agree.
    public func progress(of habits: [Habit], today: LocalDay, need: HistoryNeed) async throws -> [HabitProgress] {
        guard !habits.isEmpty else { return [] }
        return try await transaction(.snapshot) { connection in
            let profile = try await Self.profile(connection, id: accountID, logger: logger)
            let weekStart = profile?.weekStart ?? 1
            let travelDays = try await Self.zoneChanges(connection, accountID: accountID, logger: logger)
                .bridgedDays(clock: profile?.clock)
            var recorded: [Int64: [(day: LocalDay, status: EntryStatus)]] = [:]
            let rows = try await connection.query(
                """
                SELECT entry.habitId, entry.day, entry.status FROM entry JOIN habit ON habit.id = entry.habitId
                WHERE habit.accountId = \(accountID) AND entry.habitId = ANY(\(habits.map(\.id)))
                """, logger: logger
            ).collect()
            for row in rows {
                let (habitID, day, status) = try row.decode((Int64, String, String).self)
                guard let day = LocalDay(day), let status = EntryStatus(rawValue: status) else { continue }
                recorded[habitID, default: []].append((day, status))
            }
            return habits.map { habit in
                HabitProgress(
                    habit: habit,
                    timeline: HabitTimeline(
                        schedule: habit.schedule, firstDay: min(habit.createdDay, today), today: today,
                        recorded: recorded[habit.id] ?? [], travelDays: travelDays, weekStart: weekStart))
            }
        }
    }

    /// The columns `entry(from:)` reads, in its order.
    static let entryColumns = "habitId, day, status, value, source, note, recordedAt, zone"

    /// The entry of a row, or nil for one no release of this program writes.
    static func entry(from row: PostgresRow) throws -> Entry? {
        let (habitID, day, status, value, source, note, recordedAt, zone) = try row.decode(
            (Int64, String, String, Double?, String, String?, Date, String).self)
        return Entry.stored(
            habitID: habitID, day: day, status: status, value: value, source: source, note: note,
            recordedAt: recordedAt, zone: zone)
    }

    static func entry(_ connection: PostgresConnection, habitID: Int64, day: LocalDay, logger: Logger) async throws
        -> Entry?
    {
        try await connection.query(
            "SELECT \(unescaped: entryColumns) FROM entry WHERE habitId = \(habitID) AND day = \(day.description)",
            logger: logger
        ).collect().first.flatMap(entry(from:))
    }

    /// Records `entry` inside a transaction that holds its habit's row.
    static func record(_ entry: Entry, _ connection: PostgresConnection, logger: Logger) async throws -> RecordOutcome {
        let existing = try await Self.entry(connection, habitID: entry.habitID, day: entry.day, logger: logger)
        let outcome = RecordOutcome.of(recording: entry, over: existing)
        switch outcome {
        case .unchanged, .keptManual: return outcome
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
