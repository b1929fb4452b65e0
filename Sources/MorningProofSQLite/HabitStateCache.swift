import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Each habit's derived state (`HabitCheckpoint`: streaks, totals and score summed up through a
/// day that can no longer change), kept beside the entries so that a reader judges only the days
/// since instead of the whole history.
///
/// Triggers note every change that can touch a habit's history (an entry written, changed or
/// removed, with its day; a habit added or its schedule changed; the account's week start or zone
/// changed) in `habitStateDirty`, in the writing transaction itself, whoever writes. Every write
/// transaction of `AppDatabase` ends by bringing the noted habits' states up to date, so that they
/// commit together. A reader trusts a state only when its version, its checksum and the inputs it
/// was computed from (`HabitCheckpoint.basis`) match and nothing on or before the last day it
/// rests on was noted since; otherwise it judges the whole history and has the state rebuilt.
enum HabitStateSchema {
    /// The day noted for a change that touches no entry (`StoredHabitState.noEntryDay`).
    static let noEntryDay = StoredHabitState.noEntryDay

    static func create(_ db: Database) throws {
        try db.create(table: "habitState") { t in
            t.primaryKey("habitId", .integer).references("habit", onDelete: .cascade)
            t.column("version", .integer).notNull()
            t.column("basis", .text).notNull()
            t.column("through", .text).notNull()
            // An entry on or before this day changes what the state sums up.
            t.column("validThrough", .text).notNull()
            t.column("trailingRun", .integer).notNull()
            t.column("trailingRunStart", .text)
            t.column("longest", .integer).notNull()
            t.column("longestStart", .text)
            t.column("longestEnd", .text)
            t.column("totalDone", .integer).notNull()
            t.column("score", .double).notNull()
            t.column("checksum", .integer).notNull()
        }
        // No foreign key: an entry removed with its habit is still noted, and then passed over.
        try db.create(table: "habitStateDirty") { t in
            t.primaryKey("habitId", .integer)
            // The earliest entry day changed since the state was brought up to date.
            t.column("day", .text).notNull()
        }
        func note(_ habitID: String, _ day: String) -> String {
            """
            INSERT INTO habitStateDirty (habitId, day) VALUES (\(habitID), \(day))
                ON CONFLICT (habitId) DO UPDATE SET day = min(day, excluded.day);
            """
        }
        func noteAccount(_ accountID: String) -> String {
            """
            INSERT INTO habitStateDirty (habitId, day) SELECT id, '\(noEntryDay)' FROM habit WHERE accountId = \(accountID)
                ON CONFLICT (habitId) DO NOTHING;
            """
        }
        let triggers = [
            ("entry_inserted", "AFTER INSERT ON entry", note("NEW.habitId", "NEW.day")),
            ("entry_deleted", "AFTER DELETE ON entry", note("OLD.habitId", "OLD.day")),
            (
                "entry_updated", "AFTER UPDATE OF habitId, day, status ON entry",
                note("OLD.habitId", "OLD.day") + note("NEW.habitId", "NEW.day")
            ),
            ("habit_inserted", "AFTER INSERT ON habit", note("NEW.id", "'\(noEntryDay)'")),
            ("habit_updated", "AFTER UPDATE OF schedule, createdDay ON habit", note("NEW.id", "'\(noEntryDay)'")),
            ("zone_inserted", "AFTER INSERT ON zoneChange", noteAccount("NEW.accountId")),
            ("zone_deleted", "AFTER DELETE ON zoneChange", noteAccount("OLD.accountId")),
            ("zone_updated", "AFTER UPDATE ON zoneChange", noteAccount("OLD.accountId") + noteAccount("NEW.accountId")),
            ("week_inserted", "AFTER INSERT ON setting WHEN NEW.key = 'week-start'", noteAccount("NEW.accountId")),
            ("week_deleted", "AFTER DELETE ON setting WHEN OLD.key = 'week-start'", noteAccount("OLD.accountId")),
            ("week_updated", "AFTER UPDATE ON setting WHEN NEW.key = 'week-start'", noteAccount("NEW.accountId")),
            ("profile_updated", "AFTER UPDATE OF weekStart ON account", noteAccount("NEW.id")),
        ]
        for (name, when, body) in triggers {
            try db.execute(sql: "CREATE TRIGGER habitState_\(name) \(when) BEGIN \(body) END")
        }
        // Every habit there is gets its state with the next write (a reader meanwhile judges all).
        try db.execute(sql: "INSERT INTO habitStateDirty (habitId, day) SELECT id, '\(noEntryDay)' FROM habit")
    }
}

extension HabitStateContext {
    /// The account's week start and travel days, as the account's clock and zone changes give them,
    /// with the empty travel days of required habits that no excuse was left for.
    static func of(_ db: Database, accountID: Int64) throws -> HabitStateContext {
        let profile = try AppDatabase.profile(db, id: accountID)
        let clock =
            accountID == AccountProfile.ownerID
            ? AppDatabase.clock(
                from: try AppDatabase.storedSettings(db, accountID: accountID), systemZone: ZoneNames.systemDefault())
            : profile?.clock
        let zoneChanges = try AppDatabase.zoneChanges(db, accountID: accountID)
        let travel = zoneChanges.travelDays
        return HabitStateContext(
            weekStart: profile?.weekStart ?? 1, travelDays: zoneChanges.bridgedDays(clock: clock),
            missedTravel: travel.isEmpty
                ? [:] : try AppDatabase.excuseBudget(db, accountID: accountID, travelDays: travel).missedTravel)
    }
}

extension AppDatabase {
    /// Brings the state of every habit noted since the last time up to date; the end of every
    /// write transaction.
    static func refreshHabitStates(_ db: Database) throws {
        // Nothing noted, as after most writes: one prepared statement that finds no row.
        let noted = try Row.fetchAll(db.cachedStatement(sql: "SELECT habitId, day FROM habitStateDirty"))
        guard !noted.isEmpty else { return }
        try db.execute(sql: "DELETE FROM habitStateDirty")
        var contexts: [Int64: HabitStateContext] = [:]
        for row in noted {
            guard let record = try HabitRecord.fetchOne(db, key: row["habitId"] as Int64) else { continue }
            let accountID = record.accountId
            let context = try contexts[accountID] ?? HabitStateContext.of(db, accountID: accountID)
            contexts[accountID] = context
            let day: String = row["day"]
            try refreshHabitState(
                db, record.habit, context: context, touched: day == HabitStateSchema.noEntryDay ? nil : LocalDay(day))
        }
    }

    /// Brings `habit`'s state up to date as `HabitStateRefresh` decides.
    private static func refreshHabitState(
        _ db: Database, _ habit: Habit, context: HabitStateContext, touched: LocalDay?
    ) throws {
        let stored = try storedCheckpoints(db, of: [habit], context: context)[habit.id]
        let latest = try String.fetchOne(db, sql: "SELECT max(day) FROM entry WHERE habitId = ?", arguments: [habit.id])
            .flatMap { LocalDay($0) }
        guard
            let refresh = HabitStateRefresh.plan(
                habit, stored: stored, touched: touched, latest: latest, context: context)
        else { return }
        let recorded = refresh.needsNoEntries ? [] : try dayStatuses(db, habitID: habit.id, from: refresh.origin)
        let state = StoredHabitState(refresh.checkpoint(recorded: recorded), of: habit, context: context)
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO habitState (habitId, version, basis, through, validThrough, trailingRun,
                    trailingRunStart, longest, longestStart, longestEnd, totalDone, score, checksum)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                habit.id, state.version, state.basis, state.through, state.validThrough, state.trailingRun,
                state.trailingRunStart, state.longest, state.longestStart, state.longestEnd, state.totalDone,
                state.score, state.checksum,
            ])
    }

    /// The stored states of `habits` that can be trusted: of this version, intact, computed from
    /// the inputs in force, and with no entry on or before their last day noted since.
    static func storedCheckpoints(_ db: Database, of habits: [Habit], context: HabitStateContext) throws
        -> [Int64: HabitCheckpoint]
    {
        guard !habits.isEmpty else { return [:] }
        let byID = Dictionary(habits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT s.*, d.day AS noted FROM habitState s LEFT JOIN habitStateDirty d USING (habitId)
                WHERE s.habitId IN (\(databaseQuestionMarks(count: byID.count)))
                """,
            arguments: StatementArguments(Array(byID.keys)))
        var result: [Int64: HabitCheckpoint] = [:]
        for row in rows {
            let id: Int64 = row["habitId"]
            let state = StoredHabitState(
                version: row["version"], basis: row["basis"], through: row["through"],
                validThrough: row["validThrough"], trailingRun: row["trailingRun"],
                trailingRunStart: row["trailingRunStart"], longest: row["longest"], longestStart: row["longestStart"],
                longestEnd: row["longestEnd"], totalDone: row["totalDone"], score: row["score"],
                checksum: row["checksum"], noted: row["noted"])
            if let habit = byID[id], let checkpoint = state.trusted(for: habit, context: context) {
                result[id] = checkpoint
            }
        }
        return result
    }

    /// Has the states of `habitIDs` (found unsound by a read) rebuilt, in a write transaction of
    /// their own: the one write a read may make (see `AppDatabase`). A failure changes nothing the
    /// read answered; it goes to `stateRebuildFailed`, and the next read tries again.
    func rebuildHabitStates(_ habitIDs: [Int64]) async {
        guard !habitIDs.isEmpty else { return }
        do {
            try await asyncWrite { db in
                for id in habitIDs {
                    try db.execute(
                        sql: """
                            INSERT INTO habitStateDirty (habitId, day) VALUES (?, ?)
                            ON CONFLICT (habitId) DO NOTHING
                            """,
                        arguments: [id, HabitStateSchema.noEntryDay])
                }
            }
        } catch let error as StoreError {
            stateRebuildFailed(error)
        } catch {
            stateRebuildFailed(StoreError.unavailable(path, "\(path): \(error)"))
        }
    }
}
