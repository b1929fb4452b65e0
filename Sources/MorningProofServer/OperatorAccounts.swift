import MorningProofService
import MorningProofStoreContract

/// The account use cases for the operator's commands (`morningproof-server account ...`), with the
/// server's own password hashing (bcrypt on a thread of its own).
public enum OperatorAccounts {
    /// The accounts of `database`, hashing new passwords at bcrypt's `cost` (12 in use).
    public static func service(database: any AccountStore, bcryptCost: Int = 12) -> AccountService {
        AccountService(
            database: database,
            hasher: BcryptPasswordHasher(
                cost: UInt8(clamping: bcryptCost), pool: CPUWorkPool.passwordHashing(threads: 1, queueLimit: 4)))
    }
}
