import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// Passwords, sessions, reset codes and the operator's view of accounts, in SQLite.
extension AppDatabase: AccountCareStore {
    public func passwordHash(of accountID: Int64) async throws -> String? {
        try await asyncRead { db in
            try String.fetchOne(db, sql: "SELECT passwordHash FROM account WHERE id = ?", arguments: [accountID])
        }
    }

    public func changePassword(of accountID: Int64, to passwordHash: String, signOut: TokenSignOut) async throws
        -> Bool
    {
        try await asyncWrite { db in
            try db.execute(
                sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, accountID])
            guard db.changesCount == 1 else { return false }
            _ = try Self.signOut(db, accountID: accountID, signOut)
            return true
        }
    }

    public func signOut(accountID: Int64, _ signOut: TokenSignOut) async throws -> Int {
        try await asyncWrite { db in try Self.signOut(db, accountID: accountID, signOut) }
    }

    static func signOut(_ db: Database, accountID: Int64, _ signOut: TokenSignOut) throws -> Int {
        switch signOut {
        case .none: return 0
        case .all: try db.execute(sql: "DELETE FROM api_token WHERE accountId = ?", arguments: [accountID])
        case .allBut(let kept):
            try db.execute(
                sql: "DELETE FROM api_token WHERE accountId = ? AND tokenHash <> ?", arguments: [accountID, kept])
        }
        return db.changesCount
    }

    public func recordDevice(tokenID: Int64, device: String) async throws {
        try await asyncWrite { db in
            try db.execute(sql: "UPDATE api_token SET device = ? WHERE id = ?", arguments: [device, tokenID])
        }
    }

    public func recordUse(tokenHash: String, hour: Date) async throws {
        try await asyncWrite { db in
            try db.execute(
                sql:
                    "UPDATE api_token SET lastUsedAt = ? WHERE tokenHash = ? AND (lastUsedAt IS NULL OR lastUsedAt < ?)",
                arguments: [hour, tokenHash, hour])
        }
    }

    public func tokenUses(accountID: Int64, currentHash: String?) async throws -> [Int64: TokenUse] {
        try await asyncRead { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, device, lastUsedAt, tokenHash FROM api_token WHERE accountId = ?",
                arguments: [accountID])
            return Dictionary(
                uniqueKeysWithValues: rows.map { row in
                    let hash: String = row["tokenHash"]
                    return (
                        row["id"] as Int64,
                        TokenUse(device: row["device"], lastUsedAt: row["lastUsedAt"], current: hash == currentHash)
                    )
                })
        }
    }

    public func storeResetCode(accountID: Int64, codeHash: String, createdAt: Date, expiresAt: Date) async throws {
        try await asyncWrite { db in
            try db.execute(
                sql: "DELETE FROM passwordReset WHERE accountId = ? AND expiresAt <= ?",
                arguments: [accountID, createdAt])
            try db.execute(
                sql: "INSERT INTO passwordReset (accountId, codeHash, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [accountID, codeHash, createdAt, expiresAt])
        }
    }

    public func resetCodeAccount(codeHash: String, at now: Date) async throws -> Int64? {
        try await asyncRead { db in
            try Int64.fetchOne(
                db, sql: "SELECT accountId FROM passwordReset WHERE codeHash = ? AND expiresAt > ?",
                arguments: [codeHash, now])
        }
    }

    public func redeemResetCode(codeHash: String, at now: Date, passwordHash: String) async throws -> Int64? {
        try await asyncWrite { db in
            guard
                let accountID = try Int64.fetchOne(
                    db, sql: "SELECT accountId FROM passwordReset WHERE codeHash = ? AND expiresAt > ?",
                    arguments: [codeHash, now])
            else { return nil }
            try db.execute(sql: "DELETE FROM passwordReset WHERE accountId = ?", arguments: [accountID])
            try db.execute(
                sql: "UPDATE account SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, accountID])
            _ = try Self.signOut(db, accountID: accountID, .all)
            return accountID
        }
    }

    public func isDisabled(accountID: Int64) async throws -> Bool? {
        try await asyncRead { db in
            try Row.fetchOne(db, sql: "SELECT disabledAt FROM account WHERE id = ?", arguments: [accountID])
                .map { ($0["disabledAt"] as Date?) != nil }
        }
    }

    public func isOfDisabledAccount(tokenHash: String, at now: Date) async throws -> Bool {
        try await asyncRead { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM api_token JOIN account ON account.id = api_token.accountId
                    WHERE tokenHash = ? AND (expiresAt IS NULL OR expiresAt > ?) AND account.disabledAt IS NOT NULL)
                    """, arguments: [tokenHash, now]) ?? false
        }
    }

    public func setDisabled(accountID: Int64, _ disabled: Bool, at instant: Date) async throws -> Bool {
        try await asyncWrite { db in
            try db.execute(
                sql: "UPDATE account SET disabledAt = ? WHERE id = ?", arguments: [disabled ? instant : nil, accountID])
            return db.changesCount == 1
        }
    }

    public func setLogin(accountID: Int64, email: String, passwordHash: String) async throws -> Bool {
        try await asyncWrite { db in
            let other = try Int64.fetchOne(
                db, sql: "SELECT id FROM account WHERE email = ? AND id <> ?", arguments: [email, accountID])
            guard other == nil else { return false }
            try db.execute(
                sql: "UPDATE account SET email = ?, passwordHash = ? WHERE id = ?",
                arguments: [email, passwordHash, accountID])
            return db.changesCount == 1
        }
    }

    public func accountSummaries() async throws -> [AccountSummary] {
        try await asyncRead { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT account.id, account.email, account.createdAt, account.disabledAt,
                        (SELECT max(lastUsedAt) FROM api_token WHERE api_token.accountId = account.id) AS lastSeenAt,
                        (SELECT count(*) FROM habit WHERE habit.accountId = account.id AND NOT habit.archived) AS habits
                    FROM account ORDER BY account.id
                    """
            ).map { row in
                AccountSummary(
                    id: row["id"], email: row["email"], createdAt: row["createdAt"], lastSeenAt: row["lastSeenAt"],
                    habits: row["habits"], disabled: (row["disabledAt"] as Date?) != nil)
            }
        }
    }
}
