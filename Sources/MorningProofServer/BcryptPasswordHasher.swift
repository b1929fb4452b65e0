import HummingbirdBcrypt
import MorningProofService
import NIOPosix

/// bcrypt from hummingbird-auth, run on NIO's thread pool so that no event loop waits for it.
struct BcryptPasswordHasher: PasswordHasher {
    let cost: UInt8

    func hash(_ password: String) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
