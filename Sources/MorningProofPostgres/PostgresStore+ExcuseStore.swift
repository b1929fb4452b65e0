import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The excuse budget on PostgreSQL, as `AppDatabase`'s: what `ExcuseBudget` is judged from, read in
/// one snapshot.
extension PostgresStore: ExcuseStore {
    /// The budget judged over the account's whole history.
    public func excuseBudget() async throws -> ExcuseBudget {
        try await transaction(.snapshot) { connection in
            let travel = try await Self.zoneChanges(connection, accountID: accountID, logger: logger).travelDays
            return try await Self.excuseBudget(connection, accountID: accountID, travelDays: travel, logger: logger)
        }
    }

    /// The budget of `accountID` with the days its zone changed, read on `connection`.
    static func excuseBudget(
        _ connection: PostgresConnection, accountID: Int64, travelDays: Set<LocalDay>, logger: Logger
    ) async throws -> ExcuseBudget {
        var settings: [String: String] = [:]
        for try await (key, value) in try await connection.query(
            """
            SELECT key, value FROM setting WHERE accountId = \(accountID)
                AND key IN (\(SettingKey.excusesPerWeek), \(SettingKey.gateUnlocksPerWeek))
            """, logger: logger
        ).decode((String, String).self) {
            settings[key] = value
        }
        var unlocks: [LocalDay] = []
        for try await day in try await connection.query(
            "SELECT day FROM gateUnlock WHERE accountId = \(accountID)", logger: logger
        ).decode(String.self) {
            if let day = LocalDay(day) { unlocks.append(day) }
        }
        var required: [ExcuseBudget.RequiredHabit] = []
        for try await (id, createdDay) in try await connection.query(
            """
            SELECT id, createdDay FROM habit WHERE accountId = \(accountID) AND \(unescaped: ExcuseBudget.requiredHabitSQL)
            """, logger: logger
        ).decode((Int64, String).self) {
            if let day = LocalDay(createdDay) { required.append(ExcuseBudget.RequiredHabit(id: id, firstDay: day)) }
        }
        var entries: [(habitID: Int64, day: LocalDay, status: EntryStatus)] = []
        for try await (habitID, day, status) in try await connection.query(
            """
            SELECT entry.habitId, entry.day, entry.status FROM entry JOIN habit ON habit.id = entry.habitId
            WHERE habit.accountId = \(accountID) AND \(unescaped: ExcuseBudget.requiredHabitSQL)
                AND (entry.status = 'skipped' OR entry.day = ANY(\(travelDays.map(\.description))::text[]))
            """, logger: logger
        ).decode((Int64, String, String).self) {
            if let day = LocalDay(day), let status = EntryStatus(rawValue: status) {
                entries.append((habitID, day, status))
            }
        }
        return ExcuseBudget(
            perWeek: ExcuseBudget.perWeek(
                stored: settings[SettingKey.excusesPerWeek], alias: settings[SettingKey.gateUnlocksPerWeek]),
            unlockDays: unlocks, required: required, entries: entries, travelDays: travelDays)
    }

    /// `context` with the empty travel days of required habits no excuse was left for, read on
    /// `connection` when the account has travel days.
    static func withExcuses(
        _ context: HabitStateContext, zoneChanges: [ZoneChange], _ connection: PostgresConnection, accountID: Int64,
        logger: Logger
    ) async throws -> HabitStateContext {
        let travel = zoneChanges.travelDays
        guard !travel.isEmpty else { return context }
        var context = context
        context.missedTravel =
            try await excuseBudget(connection, accountID: accountID, travelDays: travel, logger: logger).missedTravel
        return context
    }
}
