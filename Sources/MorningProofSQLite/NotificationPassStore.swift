import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// What the server's notification pass finds across every account, each in one read.
extension AppDatabase: NotificationPassStore {
    public func notifiableHabits() async throws -> [NotifiableHabit] {
        try await asyncRead { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT habit.*, account.timeZone AS accountZone, account.dayStart AS accountDayStart,
                      account.weekStart AS accountWeekStart, account.email AS accountEmail
                    FROM habit JOIN account ON account.id = habit.accountId
                    WHERE NOT habit.archived
                      AND (habit.remindAt IS NOT NULL OR (habit.kind = 'metric' AND habit.goalComparison = 'atMost'))
                      AND (account.timeZone IS NOT NULL OR account.id = ?)
                    ORDER BY habit.accountId, habit.id
                    """, arguments: [AccountProfile.ownerID])
            // The owner's clock is its settings (the CLI's), read once.
            var owner: AccountProfile?
            return try rows.compactMap { row -> NotifiableHabit? in
                let habit = try HabitRecord(row: row).habit
                let accountID: Int64 = row["accountId"]
                let profile: AccountProfile
                if accountID == AccountProfile.ownerID {
                    if owner == nil { owner = try Self.profile(db, id: accountID) }
                    guard let owner, owner.timeZone != nil else { return nil }
                    profile = owner
                } else {
                    profile = AccountProfile(
                        id: accountID, email: row["accountEmail"], timeZone: row["accountZone"],
                        dayStart: row["accountDayStart"], weekStart: row["accountWeekStart"])
                }
                return NotifiableHabit(account: profile, habit: habit)
            }
        }
    }

    public func settledSlots(_ slots: [NotificationSlot]) async throws -> Set<NotificationSlot> {
        var settled: Set<NotificationSlot> = []
        // 300 slots (900 arguments) a statement, well under SQLite's limit.
        for start in stride(from: 0, to: slots.count, by: 300) {
            let chunk = Array(slots[start..<min(start + 300, slots.count)])
            settled.formUnion(
                try await asyncRead { db in
                    try Row.fetchAll(
                        db,
                        sql: """
                            WITH slot(habitId, day, key) AS (VALUES \(chunk.map { _ in "(?, ?, ?)" }.joined(separator: ", ")))
                            SELECT habitId, day, key FROM slot
                            WHERE EXISTS (SELECT 1 FROM entry WHERE entry.habitId = slot.habitId AND entry.day = slot.day)
                              OR EXISTS (
                                SELECT 1 FROM notification n WHERE n.key = slot.key AND n.day = slot.day
                                  AND (n.state = 'delivered' OR (n.state = 'failed' AND n.attempts >= ?)))
                            """,
                        arguments: StatementArguments(
                            chunk.flatMap {
                                [$0.habitID, $0.day.description, $0.key] as [any DatabaseValueConvertible]
                            }
                                + [NotificationClaimRule.maxAttemptsPerDay])
                    ).compactMap { row in
                        LocalDay(row["day"] as String).map {
                            NotificationSlot(habitID: row["habitId"], day: $0, key: row["key"])
                        }
                    }
                })
        }
        return settled
    }

    public func notificationChannels(of accounts: [Int64]) async throws -> [Int64: AccountChannels] {
        var channels: [Int64: AccountChannels] = [:]
        // 900 accounts a statement, well under SQLite's limit of arguments.
        for start in stride(from: 0, to: accounts.count, by: 900) {
            let chunk = Array(accounts[start..<min(start + 900, accounts.count)])
            let marks = chunk.map { _ in "?" }.joined(separator: ", ")
            let read = try await asyncRead { db in
                var read: [Int64: AccountChannels] = [:]
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT accountId, endpoint, p256dh, auth, createdAt FROM pushSubscription
                        WHERE accountId IN (\(marks)) ORDER BY accountId, createdAt, id
                        """, arguments: StatementArguments(chunk))
                {
                    read[row["accountId"], default: AccountChannels()].pushSubscriptions.append(
                        PushSubscription(
                            endpoint: row["endpoint"], p256dh: row["p256dh"], auth: row["auth"],
                            createdAt: row["createdAt"]))
                }
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT accountId, ntfyUrl, ntfyToken, webhookUrl, webhookSecret FROM notificationChannel
                        WHERE accountId IN (\(marks))
                        """, arguments: StatementArguments(chunk))
                {
                    let stored = StoredChannels(
                        ntfyURL: row["ntfyUrl"], ntfyToken: row["ntfyToken"], webhookURL: row["webhookUrl"],
                        webhookSecret: row["webhookSecret"])
                    read[row["accountId"], default: AccountChannels()].ntfy = stored.ntfy
                    read[row["accountId"], default: AccountChannels()].webhook = stored.webhook
                }
                return read
            }
            channels.merge(read) { $1 }
        }
        return channels
    }

    public func accountsWithWaitingNotifications(since day: LocalDay) async throws -> [AccountProfile] {
        try await asyncRead { db in
            let ids = try Int64.fetchAll(
                db,
                sql: """
                    SELECT accountId FROM notification
                    WHERE day >= ? AND state <> 'delivered' AND attempts < ?
                      AND (accountId IN (SELECT accountId FROM pushSubscription)
                        OR accountId IN (
                          SELECT accountId FROM notificationChannel WHERE ntfyUrl IS NOT NULL OR webhookUrl IS NOT NULL))
                    UNION SELECT accountId FROM metricDayMark
                    ORDER BY 1
                    """, arguments: [day.description, NotificationClaimRule.maxAttemptsPerDay])
            return try ids.compactMap { id in
                try Self.profile(db, id: id).flatMap { $0.timeZone == nil ? nil : $0 }
            }
        }
    }
}
