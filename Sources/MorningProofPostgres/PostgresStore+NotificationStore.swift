import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// The once-a-day claims of notifications, as `AppDatabase` makes them: the entry and the claim in
/// one transaction, UNIQUE (key, day) deciding which of two racing servers holds the claim, and
/// `NotificationClaimRule` deciding when a failed or abandoned claim may be taken over.
extension PostgresStore: NotificationStore {
    public func decideAndClaim(_ request: ClaimRequest, at now: Date, lease: TimeInterval) async throws -> ClaimDecision
    {
        let account = accountID
        return try await transaction(.writing) { connection in
            var decision = ClaimDecision()
            // The account's row before the habit's, as its deletion takes them (`holdAccount`).
            try await Self.holdAccount(connection, account, url: url, logger: logger)
            // The habit's row, held to the end: two servers judging one habit take turns.
            if let entry = request.entry {
                try await Self.requireOwnHabit(connection, entry.habitID, accountID: account, logger: logger)
                decision.entryOutcome = try await Self.record(entry, connection, logger: logger)
            }
            if case .habitHasNoEntry(let habitID) = request.condition {
                try await Self.requireOwnHabit(connection, habitID, accountID: account, logger: logger)
                if try await Self.entry(connection, habitID: habitID, day: request.day, logger: logger) != nil {
                    return decision
                }
            }
            let token = UUID().uuidString
            let first = NotificationClaimRule.firstClaim(queued: request.queued, token: token, at: now)
            let inserted = try await connection.query(
                """
                INSERT INTO notification (accountId, key, day, event, state, attempts, claimToken, claimedAt, createdAt)
                VALUES (\(account), \(request.key), \(request.day.description), \(request.event), 'claimed',
                    \(first.attempts), \(first.token), \(first.claimedAt), \(now))
                ON CONFLICT (key, day) DO NOTHING
                RETURNING id
                """, logger: logger
            ).collect()
            if !inserted.isEmpty {
                if request.queued {
                    decision.queued = true
                } else {
                    decision.claim = NotificationClaim(
                        key: request.key, day: request.day, event: request.event, attempt: 1, token: token)
                }
                return decision
            }
            if request.queued { return decision }
            guard
                let row = try await connection.query(
                    """
                    SELECT event, state, attempts, claimedAt, lastError FROM notification
                    WHERE key = \(request.key) AND day = \(request.day.description) FOR UPDATE
                    """, logger: logger
                ).collect().first
            else { return decision }
            let (event, state, attempts, claimedAt, lastError) = try row.decode(
                (String, String, Int, Date?, String?).self)
            guard
                let takeover = NotificationClaimRule.takeover(
                    state: NotificationState(rawValue: state) ?? .delivered, attempts: attempts, claimedAt: claimedAt,
                    lastError: lastError, now: now, lease: lease, maxAttempts: NotificationClaimRule.maxAttemptsPerDay)
            else { return decision }
            try await connection.query(
                """
                UPDATE notification SET state = 'claimed', attempts = attempts + 1, claimToken = \(token),
                    claimedAt = \(now), lastError = \(takeover.lastError)
                WHERE key = \(request.key) AND day = \(request.day.description)
                """, logger: logger)
            decision.claim = NotificationClaim(
                key: request.key, day: request.day, event: event, attempt: attempts + 1, token: token)
            return decision
        }
    }

    @discardableResult
    public func markDelivered(_ claim: NotificationClaim, at now: Date) async throws -> Bool {
        try await transaction(.statement) { connection in
            try await !connection.query(
                """
                UPDATE notification SET state = 'delivered', deliveredAt = \(now), claimToken = NULL
                WHERE key = \(claim.key) AND day = \(claim.day.description) AND claimToken = \(claim.token)
                RETURNING id
                """, logger: logger
            ).collect().isEmpty
        }
    }

    public func markFailed(_ claim: NotificationClaim, error: String) async throws {
        try await transaction(.statement) { connection in
            _ = try await connection.query(
                """
                UPDATE notification SET state = 'failed', lastError = \(error), claimToken = NULL
                WHERE key = \(claim.key) AND day = \(claim.day.description) AND claimToken = \(claim.token)
                """, logger: logger)
        }
    }

    public func settledNotificationKeys(_ keys: [String], day: LocalDay) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try await transaction(.statement) { connection in
            var settled: Set<String> = []
            let rows = try await connection.query(Self.settledQuery(keys, day: day), logger: logger)
            for try await key in rows.decode(String.self) { settled.insert(key) }
            return settled
        }
    }

    /// The notification pass's "is it settled" read before judging a habit (a hot query: `PostgresPlanTests`).
    static func settledQuery(_ keys: [String], day: LocalDay) -> PostgresQuery {
        """
        SELECT key FROM notification WHERE day = \(day.description) AND key = ANY(\(keys))
          AND (state = 'delivered' OR (state = 'failed' AND attempts >= \(NotificationClaimRule.maxAttemptsPerDay)))
        """
    }

    public func notifications(since day: LocalDay) async throws -> [StoredNotification] {
        try await transaction(.statement) { connection in
            var list: [StoredNotification] = []
            let rows = try await connection.query(
                """
                SELECT key, day, event, state, attempts, lastError, claimedAt, deliveredAt, createdAt FROM notification
                WHERE accountId = \(accountID) AND day >= \(day.description)
                ORDER BY day DESC, createdAt, id
                """, logger: logger)
            for try await (key, dayText, event, state, attempts, lastError, claimedAt, deliveredAt, createdAt)
                in rows
                .decode((String, String, String, String, Int, String?, Date?, Date?, Date).self)
            {
                guard let day = LocalDay(dayText), let state = NotificationState(rawValue: state) else { continue }
                list.append(
                    StoredNotification(
                        key: key, day: day, event: event, state: state, attempts: attempts, lastError: lastError,
                        claimedAt: claimedAt, deliveredAt: deliveredAt, createdAt: createdAt))
            }
            return list
        }
    }
}
