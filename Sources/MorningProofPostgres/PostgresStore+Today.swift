import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// What status reads, in as few round trips as the rules allow: one snapshot with one statement for
/// the account's row, its active habits, their stored states and notes, and their entries of the day,
/// then one for the entries the judgement needs (`dayStatuses`); the zone changes only for an account
/// that has any.
extension PostgresStore {
    public func habitsToday(_ today: LocalDay) async throws -> HabitsToday {
        let (found, unsound) = try await transaction(.snapshot) { connection in
            var habits: [Habit] = []
            var states: [Int64: StoredHabitState] = [:]
            var entries: [Int64: Entry] = [:]
            var profile: AccountProfile?
            var travelled = false
            for row in try await connection.query(Self.todayQuery(accountID: accountID, day: today), logger: logger)
                .collect()
            {
                let habit = try Self.habit(from: row)
                let columns = row.makeRandomAccess()
                let (timeZone, dayStart, weekStart) = (
                    try columns[14].decode(String?.self), try columns[15].decode(Int.self),
                    try columns[16].decode(Int.self)
                )
                profile = AccountProfile(
                    id: accountID, email: nil, timeZone: timeZone, dayStart: dayStart, weekStart: weekStart)
                travelled = try columns[17].decode(Bool.self)
                habits.append(habit)
                states[habit.id] = try Self.storedState(columns, from: 18, noted: true)
                entries[habit.id] = try Self.entry(columns, from: 31)
            }
            guard !habits.isEmpty else { return (HabitsToday(habits: [], entries: [:]), [Int64]()) }
            let context = Self.stateContext(
                profile,
                zoneChanges: travelled ? try await Self.zoneChanges(connection, accountID: accountID, logger: logger) : [])
            var stored: [Int64: HabitCheckpoint] = [:]
            for habit in habits {
                stored[habit.id] = states[habit.id]?.trusted(for: habit, context: context)
            }
            let (progress, unsound) = try await Self.judge(
                habits, today: today, need: .summary, stored: stored, context: context, connection,
                accountID: accountID, logger: logger)
            return (HabitsToday(habits: progress, entries: entries), unsound)
        }
        await rebuildHabitStates(unsound)
        return found
    }

    /// The account's active habits in the order the person set, each with the account's zone, day
    /// start and week start, whether it has zone changes, the habit's stored state and note, and its
    /// entry of `day` (a hot query: `PostgresPlanTests`).
    static func todayQuery(accountID: Int64, day: LocalDay) -> PostgresQuery {
        """
        SELECT \(unescaped: qualified(habitColumns, as: "habit")), account.timeZone, account.dayStart, account.weekStart,
            EXISTS (SELECT 1 FROM zoneChange WHERE zoneChange.accountId = account.id),
            \(unescaped: stateColumns), d.day, \(unescaped: qualified(entryColumns, as: "e"))
        FROM account JOIN habit ON habit.accountId = account.id AND NOT habit.archived
        LEFT JOIN habitState s ON s.habitId = habit.id
        LEFT JOIN habitStateDirty d ON d.habitId = habit.id
        LEFT JOIN entry e ON e.habitId = habit.id AND e.day = \(day.description)
        WHERE account.id = \(accountID)
        ORDER BY \(unescaped: habitOrder)
        """
    }
}
