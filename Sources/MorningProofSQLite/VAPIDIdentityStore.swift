import Foundation
import GRDB
import MorningProofStoreContract

/// The server's one Web Push identity (`vapidIdentity`, id 1), shared by every process on the database.
extension AppDatabase: VAPIDIdentityStore {
    public func vapidIdentity(orStore candidate: VAPIDIdentity) async throws -> VAPIDIdentity {
        try await writeImmediately { db in
            // The immediate transaction holds the write lock: of two processes, the second reads the first's row.
            try db.execute(
                sql: "INSERT OR IGNORE INTO vapidIdentity (id, privateKey, contact, createdAt) VALUES (1, ?, ?, ?)",
                arguments: [candidate.privateKey, candidate.contact, Date()])
            guard let row = try Row.fetchOne(db, sql: "SELECT privateKey, contact FROM vapidIdentity WHERE id = 1")
            else {
                return candidate
            }
            return VAPIDIdentity(privateKey: row["privateKey"], contact: row["contact"])
        }
    }

    public func setVAPIDContact(_ contact: String) async throws {
        try await asyncWrite { db in
            try db.execute(sql: "UPDATE vapidIdentity SET contact = ? WHERE id = 1", arguments: [contact])
        }
    }
}
