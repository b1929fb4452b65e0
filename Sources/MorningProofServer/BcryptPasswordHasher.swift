import HummingbirdBcrypt
import MorningProofService

/// bcrypt from hummingbird-auth, run on the server's CPU pool (`CPUWorkPool`): no event loop, and no
/// thread that other accounts' store calls need, waits for it.
struct BcryptPasswordHasher: PasswordHasher {
    let cost: UInt8
    let pool: CPUWorkPool

    func hash(_ password: String) async throws -> String {
        try await pool.run { [cost] in Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await pool.run { Bcrypt.verify(password, hash: hash) }
    }
}
