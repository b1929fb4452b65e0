import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: NotificationStore {
    /// Records the request's entry and claims its notification in the same write transaction, so
    /// that of two passes racing (cron `check` and `watch`), exactly one gets the claim. A failed
    /// claim is given back until `NotificationClaimRule.maxAttemptsPerDay`; a claim held past `lease` seconds (its
    /// pass died mid-delivery) is taken over.
    public func decideAndClaim(_ request: ClaimRequest, at now: Date, lease: TimeInterval) async throws -> ClaimDecision
    {
        let account = accountID
        return try await writeImmediately { db in
            var decision = ClaimDecision()
            if let entry = request.entry { decision.entryOutcome = try Self.record(entry, in: db) }
            if case .habitHasNoEntry(let habitID) = request.condition {
                let hasEntry =
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM entry WHERE habitId = ? AND day = ?)",
                        arguments: [habitID, request.day.description]) ?? false
                if hasEntry { return decision }
            }
            let token = UUID().uuidString
            let claim = NotificationClaimRule.firstClaim(queued: request.queued, token: token, at: now)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO notification
                      (accountId, key, day, event, state, attempts, claimToken, claimedAt, createdAt)
                    VALUES (?, ?, ?, ?, 'claimed', ?, ?, ?, ?)
                    """,
                arguments: [
                    account, request.key, request.day.description, request.event, claim.attempts, claim.token,
                    claim.claimedAt, now,
                ])
            if db.changesCount == 1, request.queued {
                decision.queued = true
            } else if db.changesCount == 1 {
                decision.claim = NotificationClaim(
                    key: request.key, day: request.day, event: request.event, attempt: 1, token: token)
                return decision
            }
            guard
                let row = try NotificationRow.filter(
                    NotificationRow.Columns.key == request.key && NotificationRow.Columns.day == request.day.description
                ).fetchOne(db)
            else { return decision }
            guard !request.queued,
                let takeover = NotificationClaimRule.takeover(
                    state: NotificationState(rawValue: row.state) ?? .delivered, attempts: row.attempts,
                    claimedAt: row.claimedAt, lastError: row.lastError, now: now, lease: lease,
                    maxAttempts: NotificationClaimRule.maxAttemptsPerDay)
            else { return decision }
            try db.execute(
                sql: """
                    UPDATE notification SET state = 'claimed', attempts = attempts + 1, claimToken = ?,
                      claimedAt = ?, lastError = ?
                    WHERE key = ? AND day = ?
                    """,
                arguments: [token, now, takeover.lastError, request.key, request.day.description])
            decision.claim = NotificationClaim(
                key: request.key, day: request.day, event: row.event, attempt: row.attempts + 1, token: token)
            return decision
        }
    }

    /// Marks a claimed notification delivered; false when the claim was no longer this pass's.
    @discardableResult
    public func markDelivered(_ claim: NotificationClaim, at now: Date) async throws -> Bool {
        try await writeImmediately { db in
            try db.execute(
                sql: """
                    UPDATE notification SET state = 'delivered', deliveredAt = ?, claimToken = NULL
                    WHERE key = ? AND day = ? AND claimToken = ?
                    """,
                arguments: [now, claim.key, claim.day.description, claim.token])
            return db.changesCount == 1
        }
    }

    /// Gives a claim back after its delivery failed, with the error, for the next pass to try again.
    public func markFailed(_ claim: NotificationClaim, error: String) async throws {
        try await writeImmediately { db in
            try db.execute(
                sql: """
                    UPDATE notification SET state = 'failed', lastError = ?, claimToken = NULL
                    WHERE key = ? AND day = ? AND claimToken = ?
                    """,
                arguments: [error, claim.key, claim.day.description, claim.token])
        }
    }

    /// The keys, among `keys`, whose notification of `day` needs nothing more: delivered, or
    /// given up after the last attempt. Lets a pass with nothing new skip the write transaction.
    public func settledNotificationKeys(_ keys: [String], day: LocalDay) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try await asyncRead { db in
            try String.fetchSet(
                db,
                sql: """
                    SELECT key FROM notification WHERE day = ? AND key IN (\(keys.map { _ in "?" }.joined(separator: ",")))
                      AND (state = 'delivered' OR (state = 'failed' AND attempts >= ?))
                    """,
                arguments: StatementArguments([day.description] + keys + [NotificationClaimRule.maxAttemptsPerDay]))
        }
    }

    /// Notifications of `day` and later, newest day first.
    public func notifications(since day: LocalDay) async throws -> [StoredNotification] {
        try await asyncRead { db in
            try NotificationRow.filter(
                NotificationRow.Columns.accountId == accountID && NotificationRow.Columns.day >= day.description
            )
            .order(NotificationRow.Columns.day.desc, NotificationRow.Columns.createdAt, NotificationRow.Columns.id)
            .fetchAll(db).compactMap(\.notification)
        }
    }
}
