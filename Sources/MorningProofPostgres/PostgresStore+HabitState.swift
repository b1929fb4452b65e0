import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Each habit's derived state on PostgreSQL, as SQLite keeps it (`HabitStateCache.swift`): the triggers
/// of `PostgresSchema.v6` note what a write touched, every writing transaction ends by bringing
/// the noted habits' states up to date (`refreshHabitStates`) so that they commit together, and a
/// reader trusts a state only as `StoredHabitState.trusted` says, judging the whole history
/// otherwise and having the state rebuilt.
///
/// A writer refreshes only the habits it noted itself (the notes whose row version it wrote: `xmin`
/// is its transaction), so two writers never refresh one habit from different histories (a note's
/// upsert waits for the other writer's note of the same habit to commit), and the first write after
/// a bulk load does not rebuild every habit at once. Notes committed by a writer that bypassed the
/// store (psql, a loader) stay until a reader finds the state unsound and has it rebuilt, or a
/// write of the same habit takes them over.
extension PostgresStore {
    /// Brings the state of every habit this transaction noted up to date; the end of every writing
    /// transaction. A transaction that wrote nothing has no id and takes nothing.
    static func refreshHabitStates(_ connection: PostgresConnection, logger: Logger) async throws {
        var touched: [Int64: String] = [:]
        for try await (habitID, day) in try await connection.query(
            """
            DELETE FROM habitStateDirty WHERE xmin = pg_current_xact_id_if_assigned()::xid RETURNING habitId, day
            """, logger: logger
        ).decode((Int64, String).self) {
            touched[habitID] = day
        }
        guard !touched.isEmpty else { return }
        // Each noted habit that still exists, with its account, its stored state and its latest day.
        let rows = try await connection.query(refreshQuery(Array(touched.keys)), logger: logger).collect()
        var contexts: [Int64: HabitStateContext] = [:]
        for row in rows {
            let habit = try habit(from: row)
            let columns = row.makeRandomAccess()
            let accountID = try columns[14].decode(Int64.self)
            let latest = try columns[15].decode(String?.self).flatMap { LocalDay($0) }
            let context: HabitStateContext
            if let known = contexts[accountID] {
                context = known
            } else {
                context = try await stateContext(connection, accountID: accountID, logger: logger)
                contexts[accountID] = context
            }
            let stored = try storedState(columns, from: 16)?.trusted(for: habit, context: context)
            let day = touched[habit.id] ?? StoredHabitState.noEntryDay
            guard
                let refresh = HabitStateRefresh.plan(
                    habit, stored: stored, touched: day == StoredHabitState.noEntryDay ? nil : LocalDay(day),
                    latest: latest, context: context)
            else { continue }
            let recorded =
                refresh.needsNoEntries
                ? [] : try await dayStatuses(connection, [(habit.id, refresh.origin)], logger: logger)[habit.id] ?? []
            try await store(
                StoredHabitState(refresh.checkpoint(recorded: recorded), of: habit, context: context),
                habitID: habit.id, connection, logger: logger)
        }
    }

    /// Each of `habitIDs` with its account, latest recorded day and stored state (a hot query:
    /// `PostgresPlanTests`).
    static func refreshQuery(_ habitIDs: [Int64]) -> PostgresQuery {
        """
        SELECT \(unescaped: habitColumns), habit.accountId, (SELECT max(day) FROM entry WHERE entry.habitId = habit.id),
            \(unescaped: stateColumns)
        FROM habit LEFT JOIN habitState s ON s.habitId = habit.id WHERE habit.id = ANY(\(habitIDs))
        ORDER BY habit.id
        """
    }

    private static func store(
        _ state: StoredHabitState, habitID: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO habitState (habitId, version, basis, through, validThrough, trailingRun, trailingRunStart,
                longest, longestStart, longestEnd, totalDone, score, checksum)
            VALUES (\(habitID), \(state.version), \(state.basis), \(state.through), \(state.validThrough),
                \(state.trailingRun), \(state.trailingRunStart), \(state.longest), \(state.longestStart),
                \(state.longestEnd), \(state.totalDone), \(state.score), \(state.checksum))
            ON CONFLICT (habitId) DO UPDATE SET version = excluded.version, basis = excluded.basis,
                through = excluded.through, validThrough = excluded.validThrough,
                trailingRun = excluded.trailingRun, trailingRunStart = excluded.trailingRunStart,
                longest = excluded.longest, longestStart = excluded.longestStart, longestEnd = excluded.longestEnd,
                totalDone = excluded.totalDone, score = excluded.score, checksum = excluded.checksum
            """, logger: logger)
    }

    /// The columns of `habitState` (as `s`) and of the habit's note (as `d`) that `storedState` reads.
    static let stateColumns = """
        s.version, s.basis, s.through, s.validThrough, s.trailingRun, s.trailingRunStart, s.longest, s.longestStart,
        s.longestEnd, s.totalDone, s.score, s.checksum
        """

    /// The stored state in `columns` from index `first` on (`stateColumns`, then the note's day when
    /// `noted`); nil when the habit has none.
    static func storedState(_ columns: PostgresRandomAccessRow, from first: Int, noted: Bool = false) throws
        -> StoredHabitState?
    {
        guard let version = try columns[first].decode(Int?.self) else { return nil }
        func value<T: PostgresDecodable>(_ offset: Int, _ type: T.Type) throws -> T {
            try columns[first + offset].decode(T.self)
        }
        return StoredHabitState(
            version: version, basis: try value(1, String.self), through: try value(2, String.self),
            validThrough: try value(3, String.self), trailingRun: try value(4, Int.self),
            trailingRunStart: try value(5, String?.self), longest: try value(6, Int.self),
            longestStart: try value(7, String?.self), longestEnd: try value(8, String?.self),
            totalDone: try value(9, Int.self), score: try value(10, Double.self), checksum: try value(11, Int64.self),
            noted: noted ? try value(12, String?.self) : nil)
    }

    /// The account's week start and travel days, from its row and its zone changes, with the empty
    /// travel days of required habits that no excuse was left for.
    static func stateContext(_ connection: PostgresConnection, accountID: Int64, logger: Logger) async throws
        -> HabitStateContext
    {
        let profile = try await profile(connection, id: accountID, logger: logger)
        let zoneChanges = try await zoneChanges(connection, accountID: accountID, logger: logger)
        return try await withExcuses(
            stateContext(profile, zoneChanges: zoneChanges), zoneChanges: zoneChanges, connection,
            accountID: accountID, logger: logger)
    }

    /// The context of an account with `profile` (nil for none) and `zoneChanges`, oldest first.
    static func stateContext(_ profile: AccountProfile?, zoneChanges: [ZoneChange]) -> HabitStateContext {
        HabitStateContext(
            weekStart: profile?.weekStart ?? 1, travelDays: zoneChanges.bridgedDays(clock: profile?.clock))
    }

    /// The trusted stored checkpoints of `habits`, by habit id.
    static func storedCheckpoints(
        _ connection: PostgresConnection, of habits: [Habit], context: HabitStateContext, logger: Logger
    ) async throws -> [Int64: HabitCheckpoint] {
        let byID = Dictionary(habits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var result: [Int64: HabitCheckpoint] = [:]
        for row in try await connection.query(storedStatesQuery(Array(byID.keys)), logger: logger).collect() {
            let columns = row.makeRandomAccess()
            let id = try columns[0].decode(Int64.self)
            if let habit = byID[id],
                let checkpoint = try storedState(columns, from: 1, noted: true)?.trusted(
                    for: habit, context: context)
            {
                result[id] = checkpoint
            }
        }
        return result
    }

    /// The stored states of `habitIDs` with their notes (a hot query: `PostgresPlanTests`).
    static func storedStatesQuery(_ habitIDs: [Int64]) -> PostgresQuery {
        """
        SELECT s.habitId, \(unescaped: stateColumns), d.day FROM habitState s
        LEFT JOIN habitStateDirty d ON d.habitId = s.habitId WHERE s.habitId = ANY(\(habitIDs))
        """
    }

    /// The recorded days of each habit from its first day to read on (all for nil), in one statement;
    /// with `accountID`, only of that account's habits (another's reads as none).
    static func dayStatuses(
        _ connection: PostgresConnection, _ habits: [(id: Int64, from: LocalDay?)], accountID: Int64? = nil,
        logger: Logger
    ) async throws -> [Int64: [(day: LocalDay, status: EntryStatus)]] {
        var recorded: [Int64: [(day: LocalDay, status: EntryStatus)]] = [:]
        let rows = try await connection.query(dayStatusesQuery(habits, accountID: accountID), logger: logger)
        for try await (habitID, day, done) in rows.decode((Int64, String, Bool).self) {
            guard let day = LocalDay(day) else { continue }
            recorded[habitID, default: []].append((day, done ? .done : .skipped))
        }
        return recorded
    }

    /// The recorded days query of `dayStatuses` (a hot query: `PostgresPlanTests`).
    static func dayStatusesQuery(_ habits: [(id: Int64, from: LocalDay?)], accountID: Int64?) -> PostgresQuery {
        """
        SELECT entry.habitId, entry.day, entry.status = 'done'
        FROM unnest(\(habits.map(\.id))::bigint[], \(habits.map { $0.from?.description ?? "" })::text[])
            AS wanted (habitId, first)
        JOIN entry ON entry.habitId = wanted.habitId AND entry.day >= wanted.first
        \(unescaped: accountID.map { "JOIN habit ON habit.id = wanted.habitId AND habit.accountId = \($0)" } ?? "")
        """
    }

    /// Has the states of `habitIDs` (found unsound by a read) rebuilt in a writing transaction of
    /// their own, which notes them (taking over any note left by another writer) and so refreshes them. A failure changes nothing the read answered: it is logged, and the next read tries again.
    func rebuildHabitStates(_ habitIDs: [Int64]) async {
        guard !habitIDs.isEmpty else { return }
        do {
            try await transaction(.writing) { connection in
                try await connection.query(
                    """
                    INSERT INTO habitStateDirty (habitId, day)
                    SELECT unnest(\(habitIDs)::bigint[]), \(StoredHabitState.noEntryDay)
                    ON CONFLICT (habitId) DO UPDATE SET day = habitStateDirty.day
                    """, logger: logger)
            }
        } catch {
            logger.warning("rebuilding the derived state of habits \(habitIDs) failed: \(error)")
        }
    }
}
