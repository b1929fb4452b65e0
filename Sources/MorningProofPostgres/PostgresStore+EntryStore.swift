import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Habits' days, as `AppDatabase`'s: one entry per habit and day (`UNIQUE (habitId, day)`), what
/// recording does decided by `RecordOutcome.of` (a manual entry wins over an automatic one), and
/// progress judged by `HabitTimeline`.
extension PostgresStore: EntryStore {
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

    /// A person's `done` or `skip` under last writer wins: `LastWriter.loses`, decided inside the
    /// transaction that holds the habit's row (`PostgresStore+EntryChanges`).
    public func recordAction(_ entry: Entry, lastWriterWins: Bool) async throws -> RecordOutcome {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, entry.habitID, accountID: accountID, logger: logger)
            return try await Self.recordAction(entry, lastWriterWins: lastWriterWins, connection, logger: logger)
        }
    }

    /// The same inside a transaction that holds the habit's row.
    static func recordAction(
        _ entry: Entry, lastWriterWins: Bool, _ connection: PostgresConnection, logger: Logger
    ) async throws -> RecordOutcome {
        if lastWriterWins,
            try await loses(connection, habitID: entry.habitID, day: entry.day, at: entry.recordedAt, logger: logger)
        {
            return .superseded
        }
        let outcome = try await record(entry, connection, logger: logger)
        try await noteChange(connection, habitID: entry.habitID, day: entry.day, at: entry.recordedAt, logger: logger)
        return outcome
    }

    /// A person's undo under last writer wins, as `recordAction`.
    public func clearDay(habitID: Int64, day: LocalDay, at instant: Date, lastWriterWins: Bool) async throws
        -> ClearedDay
    {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, habitID, accountID: accountID, logger: logger)
            if lastWriterWins, try await Self.loses(connection, habitID: habitID, day: day, at: instant, logger: logger)
            {
                return ClearedDay(entry: nil, answer: nil, superseded: true)
            }
            let cleared = try await Self.clearDay(connection, habitID: habitID, day: day, logger: logger)
            try await Self.noteChange(connection, habitID: habitID, day: day, at: instant, logger: logger)
            return cleared
        }
    }

    /// Status's read: in as few round trips as the rules allow (`PostgresStore+Today`).
    public func habitsToday(_ today: LocalDay) async throws -> HabitsToday {
        let statement = TodayStatement(accountID: accountID, day: today, spans: scheduleSpans.all)
        let rows = try await transaction(.statement) { connection in
            try await Self.todayRows(connection, statement, logger: logger)
        }
        for row in rows { scheduleSpans.note(row.scheduleText, row.habit.schedule) }
        if let found = Self.judgedToday(rows, today: today) { return found }
        return try await habitsTodayInSnapshot(today, statement)
    }
}
