import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Migration "v11-notification-channels": where each account's notifications go (its browsers' push
/// subscriptions, one per endpoint; its ntfy topic and webhook), and the server's one VAPID
/// identity. Part of a landed migration once released: never edit it then, add a new migration.
enum NotificationChannelSchema {
    static func create(_ db: Database) throws {
        // An endpoint is one browser's: UNIQUE, so that a second account saving it takes it over.
        try db.create(table: "pushSubscription") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
            t.column("endpoint", .text).notNull().unique()
            t.column("p256dh", .text).notNull()
            t.column("auth", .text).notNull()
            t.column("createdAt", .datetime).notNull()
        }
        try db.create(index: "pushSubscription_on_accountId", on: "pushSubscription", columns: ["accountId"])
        // At most one row per account; a channel is set when its URL is.
        try db.create(table: "notificationChannel") { t in
            t.primaryKey("accountId", .integer).references("account", onDelete: .cascade)
            t.column("ntfyUrl", .text)
            t.column("ntfyToken", .text)
            t.column("webhookUrl", .text)
            t.column("webhookSecret", .text)
        }
        // One row (id 1): every server process on the database signs Web Push alike.
        try db.create(table: "vapidIdentity") { t in
            t.primaryKey("id", .integer).check(sql: "id = 1")
            t.column("privateKey", .blob).notNull()
            t.column("contact", .text).notNull()
            t.column("createdAt", .datetime).notNull()
        }
    }
}

extension AppDatabase: NotificationChannelStore {
    public func notificationChannels() async throws -> AccountChannels {
        try await asyncRead { db in
            var channels = AccountChannels()
            channels.pushSubscriptions = try Row.fetchAll(
                db,
                sql: """
                    SELECT endpoint, p256dh, auth, createdAt FROM pushSubscription
                    WHERE accountId = ? ORDER BY createdAt, id
                    """, arguments: [accountID]
            ).map {
                PushSubscription(
                    endpoint: $0["endpoint"], p256dh: $0["p256dh"], auth: $0["auth"], createdAt: $0["createdAt"])
            }
            if let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT ntfyUrl, ntfyToken, webhookUrl, webhookSecret FROM notificationChannel WHERE accountId = ?",
                arguments: [accountID])
            {
                let stored = StoredChannels(
                    ntfyURL: row["ntfyUrl"], ntfyToken: row["ntfyToken"], webhookURL: row["webhookUrl"],
                    webhookSecret: row["webhookSecret"])
                channels.ntfy = stored.ntfy
                channels.webhook = stored.webhook
            }
            return channels
        }
    }

    public func savePushSubscription(_ subscription: PushSubscription, at instant: Date) async throws {
        let account = accountID
        try await asyncWrite { db in
            try db.execute(
                sql: """
                    INSERT INTO pushSubscription (accountId, endpoint, p256dh, auth, createdAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
                      createdAt = CASE WHEN accountId = excluded.accountId THEN createdAt ELSE excluded.createdAt END,
                      accountId = excluded.accountId
                    WHERE accountId = excluded.accountId OR (p256dh = excluded.p256dh AND auth = excluded.auth)
                    """,
                arguments: [account, subscription.endpoint, subscription.p256dh, subscription.auth, instant])
            if db.changesCount == 0 { throw PushSubscription.takenElsewhere }
        }
    }

    @discardableResult
    public func removePushSubscription(endpoint: String) async throws -> Bool {
        let account = accountID
        return try await asyncWrite { db in
            try db.execute(
                sql: "DELETE FROM pushSubscription WHERE accountId = ? AND endpoint = ?",
                arguments: [account, endpoint])
            return db.changesCount > 0
        }
    }

    public func setChannels(ntfy: NtfyChannel?, webhook: WebhookChannel?) async throws {
        let account = accountID
        try await asyncWrite { db in
            if ntfy == nil && webhook == nil {
                try db.execute(sql: "DELETE FROM notificationChannel WHERE accountId = ?", arguments: [account])
                return
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO notificationChannel (accountId, ntfyUrl, ntfyToken, webhookUrl, webhookSecret)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [account, ntfy?.url, ntfy?.token, webhook?.url, webhook?.secret])
        }
    }

    public func changeChannels(ntfy: ChannelSetting<NtfyChannel>, webhook: ChannelSetting<WebhookChannel>)
        async throws -> StoredChannels
    {
        let account = accountID
        return try await asyncWrite { db in
            // One statement: a channel kept reads the row as it is when the write lock is held.
            try db.execute(
                sql: """
                    INSERT INTO notificationChannel (accountId, ntfyUrl, ntfyToken, webhookUrl, webhookSecret)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (accountId) DO UPDATE SET
                      ntfyUrl = CASE WHEN ? THEN ntfyUrl ELSE excluded.ntfyUrl END,
                      ntfyToken = CASE WHEN ? THEN ntfyToken ELSE excluded.ntfyToken END,
                      webhookSecret = CASE WHEN ? OR webhookUrl = excluded.webhookUrl
                        THEN webhookSecret ELSE excluded.webhookSecret END,
                      webhookUrl = CASE WHEN ? THEN webhookUrl ELSE excluded.webhookUrl END
                    """,
                arguments: [
                    account, ntfy.value?.url, ntfy.value?.token, webhook.value?.url, webhook.value?.secret,
                    ntfy.keeps, ntfy.keeps, webhook.keeps, webhook.keeps,
                ])
            let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT ntfyUrl, ntfyToken, webhookUrl, webhookSecret FROM notificationChannel WHERE accountId = ?",
                arguments: [account])
            return StoredChannels(
                ntfyURL: row?["ntfyUrl"], ntfyToken: row?["ntfyToken"], webhookURL: row?["webhookUrl"],
                webhookSecret: row?["webhookSecret"])
        }
    }
}
