import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The first claims of many accounts' reminders, in one write transaction.
extension AppDatabase: ReminderClaimStore {
    public func claimFirstReminders(_ reminders: [FirstReminder], zoneSteadySince: Date, at now: Date) async throws
        -> [NotificationClaim]
    {
        guard !reminders.isEmpty else { return [] }
        return try await writeImmediately { db in
            var claims: [NotificationClaim] = []
            let statement = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO notification
                      (accountId, key, day, event, state, attempts, claimToken, claimedAt, createdAt)
                    SELECT ?, ?, ?, ?, 'claimed', 1, ?, ?, ? FROM habit
                    WHERE habit.id = ? AND habit.accountId = ?
                      AND NOT EXISTS (SELECT 1 FROM entry WHERE entry.habitId = ? AND entry.day = ?)
                      AND NOT EXISTS (SELECT 1 FROM zoneChange WHERE zoneChange.accountId = ? AND zoneChange.at >= ?)
                    """)
            for reminder in reminders {
                let token = UUID().uuidString
                let day = reminder.day.description
                try statement.execute(arguments: [
                    reminder.accountID, reminder.key, day, reminder.event, token, now, now, reminder.habitID,
                    reminder.accountID, reminder.habitID, day, reminder.accountID, zoneSteadySince,
                ])
                if db.changesCount == 1 {
                    claims.append(
                        NotificationClaim(
                            key: reminder.key, day: reminder.day, event: reminder.event, attempt: 1, token: token))
                }
            }
            return claims
        }
    }

    public func renewClaims(_ claims: [NotificationClaim], at now: Date) async throws -> [NotificationClaim] {
        guard !claims.isEmpty else { return [] }
        return try await writeImmediately { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE notification SET claimedAt = ?
                    WHERE key = ? AND day = ? AND claimToken = ? AND state = 'claimed'
                    """)
            return try claims.filter { claim in
                try statement.execute(arguments: [now, claim.key, claim.day.description, claim.token])
                return db.changesCount == 1
            }
        }
    }
}
