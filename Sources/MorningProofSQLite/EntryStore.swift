import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: EntryStore {
    /// Every entry of one habit, oldest first.
    public func entries(habitID: Int64) async throws -> [Entry] {
        try await asyncRead { db in
            try requireOwnHabit(db, habitID)
            return try EntryRecord.filter(EntryRecord.Columns.habitId == habitID).order(EntryRecord.Columns.day)
                .fetchAll(db)
                .compactMap(\.entry)
        }
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
            return Dictionary(
                entries.compactMap(\.entry).map { ($0.habitID, $0) }, uniquingKeysWith: { first, _ in first })
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

    /// A person's `done` or `skip` under last writer wins: `LastWriter.loses`, decided inside the
    /// write on what is stored (`EntryChanges.swift`).
    public func recordAction(_ entry: Entry, lastWriterWins: Bool) async throws -> RecordOutcome {
        try await asyncWrite { db in
            try requireOwnHabit(db, entry.habitID)
            return try Self.recordAction(entry, lastWriterWins: lastWriterWins, in: db)
        }
    }

    /// The same inside a transaction that checked the habit is the account's.
    static func recordAction(_ entry: Entry, lastWriterWins: Bool, in db: Database) throws -> RecordOutcome {
        if lastWriterWins, try loses(db, habitID: entry.habitID, day: entry.day, at: entry.recordedAt) {
            return .superseded
        }
        let outcome = try record(entry, in: db)
        try noteChange(db, habitID: entry.habitID, day: entry.day, at: entry.recordedAt)
        return outcome
    }

    /// Removes a habit's entry and check-in answer of a day in one transaction (`undo`, `checkin reset`).
    @discardableResult
    public func clearDay(habitID: Int64, day: LocalDay) async throws -> ClearedDay {
        try await asyncWrite { db in
            try requireOwnHabit(db, habitID)
            return try Self.clearDay(db, habitID: habitID, day: day)
        }
    }

    /// A person's undo under last writer wins, as `recordAction`.
    public func clearDay(habitID: Int64, day: LocalDay, at instant: Date, lastWriterWins: Bool) async throws
        -> ClearedDay
    {
        try await asyncWrite { db in
            try requireOwnHabit(db, habitID)
            if lastWriterWins, try Self.loses(db, habitID: habitID, day: day, at: instant) {
                return ClearedDay(entry: nil, answer: nil, superseded: true)
            }
            let cleared = try Self.clearDay(db, habitID: habitID, day: day)
            try Self.noteChange(db, habitID: habitID, day: day, at: instant)
            return cleared
        }
    }

    /// The same inside a transaction.
    static func clearDay(_ db: Database, habitID: Int64, day: LocalDay) throws -> ClearedDay {
        let entry = try Self.entry(db, habitID: habitID, day: day)
        let answer = try Row.fetchOne(
            db, sql: "SELECT day, answer, answeredAt FROM checkinAnswer WHERE habitId = ? AND day = ?",
            arguments: [habitID, day.description]
        ).flatMap { Self.answer(from: $0, habitID: habitID) }
        try EntryRecord.of(habitID: habitID, day: day).deleteAll(db)
        try db.execute(
            sql: "DELETE FROM checkinAnswer WHERE habitId = ? AND day = ?", arguments: [habitID, day.description])
        return ClearedDay(entry: entry, answer: answer)
    }

    /// Every habit's progress as of `today`, each judged from its creation day (or today, for a
    /// habit created "later" by a clock change) with the account's travel days and week start. With a `need` short of `.all`, a habit whose stored
    /// state (`HabitStateCache.swift`) is sound is judged only from a little before that state's last
    /// day (or from what `need` asks); the others are judged whole, and their states rebuilt.
    public func progress(of habits: [Habit], today: LocalDay, need: HistoryNeed = .all) async throws -> [HabitProgress]
    {
        let (progress, unsound) = try await asyncRead { db in
            let context = try HabitStateContext.of(db, accountID: accountID)
            let stored = need == .all ? [:] : try Self.storedCheckpoints(db, of: habits, context: context)
            var unsound: [Int64] = []
            let progress = try habits.map { habit in
                let checkpoint = stored[habit.id]
                if need != .all && checkpoint == nil { unsound.append(habit.id) }
                let reading = HabitReading(habit, today: today, need: need, checkpoint: checkpoint, context: context)
                let recorded = try Self.dayStatuses(db, habitID: habit.id, from: reading.origin)
                return HabitProgress(habit: habit, timeline: reading.timeline(recorded: recorded))
            }
            return (progress, unsound)
        }
        await rebuildHabitStates(unsound)
        return progress
    }
}
