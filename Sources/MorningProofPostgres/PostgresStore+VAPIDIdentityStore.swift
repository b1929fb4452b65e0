import Foundation
import MorningProofStoreContract
import PostgresNIO

/// The server's one Web Push identity, as `AppDatabase` keeps it: one row, shared by every server.
extension PostgresStore: VAPIDIdentityStore {
    public func vapidIdentity(orStore candidate: VAPIDIdentity) async throws -> VAPIDIdentity {
        try await transaction(.writing) { connection in
            // Of two inserts at once, the second waits for the first to commit, then inserts nothing;
            // the SELECT that follows (a new statement) sees the first's row.
            _ = try await connection.query(
                """
                INSERT INTO vapidIdentity (id, privateKey, contact, createdAt)
                VALUES (1, \(ByteBuffer(bytes: candidate.privateKey)), \(candidate.contact), now())
                ON CONFLICT (id) DO NOTHING
                """, logger: logger)
            let rows = try await connection.query(
                "SELECT privateKey, contact FROM vapidIdentity WHERE id = 1", logger: logger
            ).collect()
            guard let row = rows.first else { return candidate }
            let (key, contact) = try row.decode((ByteBuffer, String).self)
            return VAPIDIdentity(privateKey: Data(key.readableBytesView), contact: contact)
        }
    }

    public func setVAPIDContact(_ contact: String) async throws {
        try await transaction(.statement) { connection in
            _ = try await connection.query(
                "UPDATE vapidIdentity SET contact = \(contact) WHERE id = 1", logger: logger)
        }
    }
}
