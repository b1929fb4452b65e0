import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The first claims of many accounts' reminders, in one transaction: their accounts held, then one INSERT.
extension PostgresStore: ReminderClaimStore {
    public func claimFirstReminders(_ reminders: [FirstReminder], zoneSteadySince: Date, at now: Date) async throws
        -> [NotificationClaim]
    {
        guard !reminders.isEmpty else { return [] }
        let tokens = reminders.map { _ in UUID().uuidString }
        let events = Dictionary(reminders.map { ($0.key + " " + $0.day.description, $0.event) }) { first, _ in first }
        return try await transaction(.writing) { connection in
            var claims: [NotificationClaim] = []
            // The accounts' rows before their habits', as an account's deletion takes them (`holdAccount`).
            try await Self.holdAccounts(connection, reminders.map(\.accountID), logger: logger)
            let rows = try await connection.query(
                Self.firstRemindersQuery(reminders, tokens: tokens, zoneSteadySince: zoneSteadySince, at: now),
                logger: logger)
            for try await (key, dayText, token) in rows.decode((String, String, String).self) {
                guard let day = LocalDay(dayText), let event = events[key + " " + dayText] else { continue }
                claims.append(NotificationClaim(key: key, day: day, event: event, attempt: 1, token: token))
            }
            return claims
        }
    }

    public func renewClaims(_ claims: [NotificationClaim], at now: Date) async throws -> [NotificationClaim] {
        guard !claims.isEmpty else { return [] }
        return try await transaction(.statement) { connection in
            var held: Set<String> = []
            let rows = try await connection.query(
                """
                UPDATE notification AS n SET claimedAt = \(now)
                FROM unnest(\(claims.map(\.key)), \(claims.map(\.day.description)), \(claims.map(\.token)))
                  AS r (key, day, token)
                WHERE n.key = r.key AND n.day = r.day AND n.claimToken = r.token AND n.state = 'claimed'
                RETURNING n.claimToken
                """, logger: logger)
            for try await token in rows.decode(String.self) { held.insert(token) }
            return claims.filter { held.contains($0.token) }
        }
    }

    /// The claims' INSERT. The habits' rows are locked in id order, as `decideAndClaim` locks its
    /// habit's: an entry recorded at the same moment waits, or is seen; UNIQUE (key, day) decides
    /// between two passes.
    static func firstRemindersQuery(
        _ reminders: [FirstReminder], tokens: [String], zoneSteadySince: Date, at now: Date
    ) -> PostgresQuery {
        """
        INSERT INTO notification (accountId, key, day, event, state, attempts, claimToken, claimedAt, createdAt)
        SELECT r.accountId, r.key, r.day, r.event, 'claimed', 1, r.token, \(now), \(now)
        FROM unnest(\(reminders.map(\.accountID)), \(reminders.map(\.habitID)), \(reminders.map(\.key)),
            \(reminders.map(\.day.description)), \(reminders.map(\.event)), \(tokens))
          AS r (accountId, habitId, key, day, event, token)
        JOIN habit ON habit.id = r.habitId AND habit.accountId = r.accountId
        WHERE NOT EXISTS (SELECT 1 FROM entry WHERE entry.habitId = r.habitId AND entry.day = r.day)
          AND NOT EXISTS (SELECT 1 FROM zoneChange z WHERE z.accountId = r.accountId AND z.at >= \(zoneSteadySince))
        ORDER BY habit.id
        FOR UPDATE OF habit
        ON CONFLICT (key, day) DO NOTHING
        RETURNING key, day, claimToken
        """
    }
}
