import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// An account's notification channels, as `AppDatabase` keeps them.
extension PostgresStore: NotificationChannelStore {
    public func notificationChannels() async throws -> AccountChannels {
        try await transaction(.snapshot) { connection in
            var channels = AccountChannels()
            let subscriptions = try await connection.query(
                """
                SELECT endpoint, p256dh, auth, createdAt FROM pushSubscription
                WHERE accountId = \(accountID) ORDER BY createdAt, id
                """, logger: logger)
            for try await (endpoint, p256dh, auth, createdAt) in subscriptions.decode(
                (String, String, String, Date).self)
            {
                channels.pushSubscriptions.append(
                    PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, createdAt: createdAt))
            }
            let rows = try await connection.query(
                """
                SELECT ntfyUrl, ntfyToken, webhookUrl, webhookSecret FROM notificationChannel
                WHERE accountId = \(accountID)
                """, logger: logger
            ).collect()
            if let row = rows.first {
                let (ntfyURL, ntfyToken, webhookURL, webhookSecret) = try row.decode(
                    (String?, String?, String?, String?).self)
                let stored = StoredChannels(
                    ntfyURL: ntfyURL, ntfyToken: ntfyToken, webhookURL: webhookURL, webhookSecret: webhookSecret)
                channels.ntfy = stored.ntfy
                channels.webhook = stored.webhook
            }
            return channels
        }
    }

    public func savePushSubscription(_ subscription: PushSubscription, at instant: Date) async throws {
        try await transaction(.statement) { connection in
            let saved = try await connection.query(
                """
                INSERT INTO pushSubscription (accountId, endpoint, p256dh, auth, createdAt)
                VALUES (\(accountID), \(subscription.endpoint), \(subscription.p256dh), \(subscription.auth), \(instant))
                ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
                  createdAt = CASE WHEN pushSubscription.accountId = excluded.accountId
                    THEN pushSubscription.createdAt ELSE excluded.createdAt END,
                  accountId = excluded.accountId
                WHERE pushSubscription.accountId = excluded.accountId
                  OR (pushSubscription.p256dh = excluded.p256dh AND pushSubscription.auth = excluded.auth)
                RETURNING id
                """, logger: logger
            ).collect()
            if saved.isEmpty { throw PushSubscription.takenElsewhere }
        }
    }

    @discardableResult
    public func removePushSubscription(endpoint: String) async throws -> Bool {
        try await transaction(.statement) { connection in
            try await !connection.query(
                """
                DELETE FROM pushSubscription WHERE accountId = \(accountID) AND endpoint = \(endpoint) RETURNING id
                """, logger: logger
            ).collect().isEmpty
        }
    }

    public func setChannels(ntfy: NtfyChannel?, webhook: WebhookChannel?) async throws {
        try await transaction(.statement) { connection in
            if ntfy == nil && webhook == nil {
                _ = try await connection.query(
                    "DELETE FROM notificationChannel WHERE accountId = \(accountID)", logger: logger)
                return
            }
            _ = try await connection.query(
                """
                INSERT INTO notificationChannel (accountId, ntfyUrl, ntfyToken, webhookUrl, webhookSecret)
                VALUES (\(accountID), \(ntfy?.url), \(ntfy?.token), \(webhook?.url), \(webhook?.secret))
                ON CONFLICT (accountId) DO UPDATE SET ntfyUrl = excluded.ntfyUrl, ntfyToken = excluded.ntfyToken,
                  webhookUrl = excluded.webhookUrl, webhookSecret = excluded.webhookSecret
                """, logger: logger)
        }
    }

    public func changeChannels(ntfy: ChannelSetting<NtfyChannel>, webhook: ChannelSetting<WebhookChannel>)
        async throws -> StoredChannels
    {
        let (keepNtfy, keepWebhook) = (ntfy.keeps, webhook.keeps)
        return try await transaction(.statement) { connection in
            // One statement: ON CONFLICT locks the row and reads its latest version.
            let rows = try await connection.query(
                """
                INSERT INTO notificationChannel (accountId, ntfyUrl, ntfyToken, webhookUrl, webhookSecret)
                VALUES (\(accountID), \(ntfy.value?.url), \(ntfy.value?.token), \(webhook.value?.url),
                  \(webhook.value?.secret))
                ON CONFLICT (accountId) DO UPDATE SET
                  ntfyUrl = CASE WHEN \(keepNtfy) THEN notificationChannel.ntfyUrl ELSE excluded.ntfyUrl END,
                  ntfyToken = CASE WHEN \(keepNtfy) THEN notificationChannel.ntfyToken ELSE excluded.ntfyToken END,
                  webhookSecret = CASE WHEN \(keepWebhook) OR notificationChannel.webhookUrl = excluded.webhookUrl
                    THEN notificationChannel.webhookSecret ELSE excluded.webhookSecret END,
                  webhookUrl = CASE WHEN \(keepWebhook) THEN notificationChannel.webhookUrl ELSE excluded.webhookUrl END
                RETURNING ntfyUrl, ntfyToken, webhookUrl, webhookSecret
                """, logger: logger
            ).collect()
            let (ntfyURL, ntfyToken, webhookURL, webhookSecret) =
                try rows.first?.decode(
                    (String?, String?, String?, String?).self) ?? (nil, nil, nil, nil)
            return StoredChannels(
                ntfyURL: ntfyURL, ntfyToken: ntfyToken, webhookURL: webhookURL, webhookSecret: webhookSecret)
        }
    }
}
