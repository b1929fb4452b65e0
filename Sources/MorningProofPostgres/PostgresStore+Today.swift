import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// What status reads (`habitsToday`, served in `PostgresStore+EntryStore`), in as few round trips
/// as the rules allow. Mostly one prepared statement, its own snapshot (`TodayStatement`): the
/// account's row, its active habits, their stored states and notes, their entries of the day and the
/// days since each state that a summary resumed from it can need. When that is not enough (a state
/// missing or stale, a schedule whose span was not known, an account with zone changes), one
/// snapshot with the same statement, then the entries the judgement needs (`dayStatuses`) and the
/// zone changes.
extension PostgresStore {
    /// One habit as `TodayStatement` reads it.
    struct TodayRow: Sendable {
        var habit: Habit
        var scheduleText: String
        var profile: AccountProfile
        var travelled: Bool
        var state: StoredHabitState?
        var entry: Entry?
        /// The first day of `recorded`; nil when the habit has no stored state.
        var since: LocalDay?
        var recorded: [(day: LocalDay, status: EntryStatus)]
    }

    static func todayRows(_ connection: PostgresConnection, _ statement: TodayStatement, logger: Logger) async throws
        -> [TodayRow]
    {
        var rows: [TodayRow] = []
        for try await row in try await connection.execute(statement, logger: logger) {
            let habit = try Self.habit(from: row)
            let columns = row.makeRandomAccess()
            let profile = AccountProfile(
                id: statement.accountID, email: nil, timeZone: try columns[14].decode(String?.self),
                dayStart: try columns[15].decode(Int.self), weekStart: try columns[16].decode(Int.self))
            let marks = try columns[40].decode([Int32].self)
            rows.append(
                TodayRow(
                    habit: habit, scheduleText: try columns[3].decode(String.self), profile: profile,
                    travelled: try columns[17].decode(Bool.self),
                    state: try Self.storedState(columns, from: 18, noted: true),
                    entry: try Self.entry(columns, from: 31),
                    since: try columns[39].decode(Int32?.self).map { LocalDay(dayNumber: Int($0)) },
                    recorded: marks.map { (LocalDay(dayNumber: Int($0 >> 1)), $0 & 1 == 1 ? .done : .skipped) }))
        }
        return rows
    }

    /// Status from `rows` alone: nil when a habit needs more than they hold (no trusted state, or
    /// days before `since`) or the account has zone changes.
    static func judgedToday(_ rows: [TodayRow], today: LocalDay) -> HabitsToday? {
        guard let first = rows.first else { return HabitsToday(habits: [], entries: [:]) }
        guard !first.travelled else { return nil }
        let context = stateContext(first.profile, zoneChanges: [])
        var progress: [HabitProgress] = []
        var entries: [Int64: Entry] = [:]
        for row in rows {
            guard let since = row.since, let checkpoint = row.state?.trusted(for: row.habit, context: context) else {
                return nil
            }
            let reading = HabitReading(
                row.habit, today: today, need: .summary, checkpoint: checkpoint, context: context)
            guard let origin = reading.origin, origin >= since else { return nil }
            progress.append(
                HabitProgress(
                    habit: row.habit, timeline: reading.timeline(recorded: row.recorded.filter { $0.day >= origin })))
            entries[row.habit.id] = row.entry
        }
        return HabitsToday(habits: progress, entries: entries)
    }

    /// Status in one snapshot of the statement, the zone changes and the entries the judgement needs;
    /// the states found unsound are rebuilt after.
    func habitsTodayInSnapshot(_ today: LocalDay, _ statement: TodayStatement) async throws -> HabitsToday {
        let (found, unsound) = try await transaction(.snapshot) { connection in
            let rows = try await Self.todayRows(connection, statement, logger: logger)
            guard let first = rows.first else { return (HabitsToday(habits: [], entries: [:]), [Int64]()) }
            let zoneChanges =
                first.travelled ? try await Self.zoneChanges(connection, accountID: accountID, logger: logger) : []
            let context = try await Self.withExcuses(
                Self.stateContext(first.profile, zoneChanges: zoneChanges), zoneChanges: zoneChanges, connection,
                accountID: accountID, logger: logger)
            var stored: [Int64: HabitCheckpoint] = [:]
            for row in rows { stored[row.habit.id] = row.state?.trusted(for: row.habit, context: context) }
            let (progress, unsound) = try await Self.judge(
                rows.map(\.habit), today: today, need: .summary, stored: stored, context: context, connection,
                accountID: accountID, logger: logger)
            return (
                HabitsToday(habits: progress, entries: rows.reduce(into: [:]) { $0[$1.habit.id] = $1.entry }), unsound
            )
        }
        await rebuildHabitStates(unsound)
        return found
    }

    /// The statement status runs first, as its plan test sees it.
    static func todayQuery(accountID: Int64, day: LocalDay, spans: [String: Int32] = [:]) -> PostgresQuery {
        TodayStatement(accountID: accountID, day: day, spans: spans).query
    }
}
