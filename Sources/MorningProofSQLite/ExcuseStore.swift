import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The excuse budget on SQLite: what `ExcuseBudget` is judged from, read in one transaction.
extension AppDatabase: ExcuseStore {
    /// The budget judged over the account's whole history.
    public func excuseBudget() async throws -> ExcuseBudget {
        try await asyncRead { db in
            try Self.excuseBudget(
                db, accountID: accountID, travelDays: Self.zoneChanges(db, accountID: accountID).travelDays)
        }
    }

    /// The budget of `accountID` with the days its zone changed, inside a transaction.
    static func excuseBudget(_ db: Database, accountID: Int64, travelDays: Set<LocalDay>) throws -> ExcuseBudget {
        let settings = try storedSettings(db, accountID: accountID)
        let unlocks = try String.fetchAll(
            db, sql: "SELECT day FROM gateUnlock WHERE accountId = ?", arguments: [accountID]
        ).compactMap { LocalDay($0) }
        let required = try Row.fetchAll(
            db, sql: "SELECT id, createdDay FROM habit WHERE accountId = ? AND \(ExcuseBudget.requiredHabitSQL)",
            arguments: [accountID]
        ).compactMap { row in
            LocalDay(row["createdDay"] as String).map { ExcuseBudget.RequiredHabit(id: row["id"], firstDay: $0) }
        }
        let travel = travelDays.map(\.description)
        let entries = try Row.fetchAll(
            db,
            sql: """
                SELECT entry.habitId, entry.day, entry.status FROM entry JOIN habit ON habit.id = entry.habitId
                WHERE habit.accountId = ? AND \(ExcuseBudget.requiredHabitSQL)
                    AND (entry.status = 'skipped' OR entry.day IN (\(databaseQuestionMarks(count: travel.count))))
                """,
            arguments: [accountID] + StatementArguments(travel)
        ).compactMap { row -> (habitID: Int64, day: LocalDay, status: EntryStatus)? in
            guard let day = LocalDay(row["day"] as String), let status = EntryStatus(rawValue: row["status"]) else {
                return nil
            }
            return (row["habitId"], day, status)
        }
        return ExcuseBudget(
            perWeek: ExcuseBudget.perWeek(
                stored: settings[SettingKey.excusesPerWeek], alias: settings[SettingKey.gateUnlocksPerWeek]),
            unlockDays: unlocks, required: required, entries: entries, travelDays: travelDays)
    }
}
