import HummingbirdBcrypt
import MorningProofService

/// bcrypt from hummingbird-auth, run on the password-hashing threads (`CPUWorkPool.passwordHashing`):
/// no event loop, no thread that other accounts' store calls need and no upload waits for it, nor it
/// for them; past their bounded queue a sign-in is refused without hashing.
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
