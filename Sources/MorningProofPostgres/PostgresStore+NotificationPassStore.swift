import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// What the server's notification pass finds across every account, each in one statement, as
/// `AppDatabase`'s.
extension PostgresStore: NotificationPassStore {
    public func notifiableHabits() async throws -> [NotifiableHabit] {
        try await transaction(.statement) { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.qualified(Self.habitColumns, as: "habit")), \(unescaped: Self.profileColumns)
                FROM habit JOIN account ON account.id = habit.accountId
                WHERE NOT habit.archived AND account.timeZone IS NOT NULL
                  AND (habit.remindAt IS NOT NULL OR (habit.kind = 'metric' AND habit.goalComparison = 'atMost'))
                ORDER BY habit.accountId, habit.id
                """, logger: logger
            ).collect().map { row in
                let columns = row.makeRandomAccess()
                let account = AccountProfile(
                    id: try columns[14].decode(Int64.self), email: try columns[15].decode(String?.self),
                    timeZone: try columns[16].decode(String?.self), dayStart: try columns[17].decode(Int.self),
                    weekStart: try columns[18].decode(Int.self))
                return NotifiableHabit(account: account, habit: try Self.habit(from: row))
            }
        }
    }

    public func settledSlots(_ slots: [NotificationSlot]) async throws -> Set<NotificationSlot> {
        guard !slots.isEmpty else { return [] }
        return try await transaction(.statement) { connection in
            var settled: Set<NotificationSlot> = []
            let rows = try await connection.query(
                """
                SELECT slot.habitId, slot.day, slot.key
                FROM unnest(\(slots.map(\.habitID)), \(slots.map(\.day.description)), \(slots.map(\.key)))
                  AS slot (habitId, day, key)
                WHERE EXISTS (SELECT 1 FROM entry WHERE entry.habitId = slot.habitId AND entry.day = slot.day)
                  OR EXISTS (
                    SELECT 1 FROM notification n WHERE n.key = slot.key AND n.day = slot.day
                      AND (n.state = 'delivered' OR (n.state = 'failed' AND n.attempts >= \(NotificationClaimRule.maxAttemptsPerDay))))
                """, logger: logger
            ).collect()
            for row in rows {
                let (habitID, day, key) = try row.decode((Int64, String, String).self)
                if let day = LocalDay(day) { settled.insert(NotificationSlot(habitID: habitID, day: day, key: key)) }
            }
            return settled
        }
    }

    public func notificationChannels(of accounts: [Int64]) async throws -> [Int64: AccountChannels] {
        guard !accounts.isEmpty else { return [:] }
        return try await transaction(.snapshot) { connection in
            var channels: [Int64: AccountChannels] = [:]
            let subscriptions = try await connection.query(
                """
                SELECT accountId, endpoint, p256dh, auth, createdAt FROM pushSubscription
                WHERE accountId = ANY(\(accounts)) ORDER BY accountId, createdAt, id
                """, logger: logger)
            for try await (account, endpoint, p256dh, auth, createdAt) in subscriptions.decode(
                (Int64, String, String, String, Date).self)
            {
                channels[account, default: AccountChannels()].pushSubscriptions.append(
                    PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, createdAt: createdAt))
            }
            let rows = try await connection.query(
                """
                SELECT accountId, ntfyUrl, ntfyToken, webhookUrl, webhookSecret FROM notificationChannel
                WHERE accountId = ANY(\(accounts))
                """, logger: logger)
            for try await (account, ntfyURL, ntfyToken, webhookURL, webhookSecret) in rows.decode(
                (Int64, String?, String?, String?, String?).self)
            {
                let stored = StoredChannels(
                    ntfyURL: ntfyURL, ntfyToken: ntfyToken, webhookURL: webhookURL, webhookSecret: webhookSecret)
                channels[account, default: AccountChannels()].ntfy = stored.ntfy
                channels[account, default: AccountChannels()].webhook = stored.webhook
            }
            return channels
        }
    }

    public func accountsWithWaitingNotifications(since day: LocalDay) async throws -> [AccountProfile] {
        try await transaction(.statement) { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.profileColumns) FROM account
                WHERE account.timeZone IS NOT NULL AND account.id IN (
                  SELECT accountId FROM notification
                  WHERE day >= \(day.description) AND state <> 'delivered'
                    AND attempts < \(NotificationClaimRule.maxAttemptsPerDay)
                    AND (accountId IN (SELECT accountId FROM pushSubscription)
                      OR accountId IN (
                        SELECT accountId FROM notificationChannel WHERE ntfyUrl IS NOT NULL OR webhookUrl IS NOT NULL))
                  UNION SELECT accountId FROM metricDayMark)
                ORDER BY account.id
                """, logger: logger
            ).collect().map(Self.profile(from:))
        }
    }
}
