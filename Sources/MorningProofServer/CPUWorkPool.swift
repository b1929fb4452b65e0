import Hummingbird
import MorningProofCore
import MorningProofService
import NIOCore
import NIOPosix

/// The threads for CPU-heavy work: decoding and verifying a proof photo, reading a metrics file
/// (password hashing has a small pool of its own: `passwordHashing`). One thread per core, apart
/// from NIO's thread pool (where the habit routes' store calls wait for the database) and from the
/// event loops and Swift's cooperative pool, so that one account's eight 49-megapixel photos make
/// other accounts' reads wait for a core, never for a queue.
///
/// Work waits in a queue of `queueLimit` at most; past that a request is refused at once with 503
/// and `Retry-After`, as every bounded queue of the server answers.
///
/// The pool's threads run at a lower priority (`niceness`, 10 for the upload and photo pool): a core
/// they hold is given to a sign-in's hashing or a habit read first. Without it, on 2 cores, one
/// account's uploads and metrics reads beside another's sign-in made that sign-in take 1.1 to 1.7 s
/// instead of 0.35 s (`scripts/bench/fairness`, SQLite).
final class CPUWorkPool: Sendable {
    /// Threads that run the work: the machine's cores unless given.
    let threads: Int
    /// Work that may wait for a thread, beyond the `threads` pieces running.
    let queueLimit: Int
    private let pool: NIOThreadPool
    /// Work running or waiting now, at most `threads + queueLimit`.
    private let admission: BoundedAdmission
    /// The threads' nice value, 0 (as the rest of the server) to 19 (the lowest priority).
    let niceness: Int32
    /// The nice value of the pool of uploads, photos and metrics reads.
    static let heavyWorkNiceness: Int32 = 10

    /// `refusal`: the answer when the queue is full (503 `busy` unless given).
    init(
        threads: Int = System.coreCount, queueLimit: Int, niceness: Int32 = 0,
        refusal: APIError = BoundedAdmission.busy
    ) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        self.niceness = min(max(niceness, 0), 19)
        admission = BoundedAdmission(limit: self.threads + self.queueLimit, refusal: refusal)
        pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `body` on one of the pool's threads once one is free; 503 with `Retry-After` when the
    /// queue is full.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let niceness = niceness
        return try await admission.run {
            try await pool.runIfActive {
                if niceness > 0 { Self.lowerThisThread(to: niceness) }
                return try body()
            }
        }
    }

    /// Sets the calling thread's nice value: on Linux a nice value belongs to the thread, and
    /// `who` 0 is the caller. Raising it needs no privilege; once raised, each call is a no-op.
    private static func lowerThisThread(to niceness: Int32) {
        #if os(Linux)
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}

extension CPUWorkPool {
    /// The threads that hash passwords for sign-ins and sign-ups, apart from the pool of uploads and
    /// photos: no upload, photo or metrics read holds a sign-in up, and a flood of sign-ins (from
    /// any number of addresses) holds at most these `threads` of the cores. Past `queueLimit` waiting,
    /// a sign-in is answered 503 with `Retry-After` at once, without hashing.
    static func passwordHashing(threads: Int, queueLimit: Int) -> CPUWorkPool {
        CPUWorkPool(threads: threads, queueLimit: queueLimit, refusal: tooManySignIns)
    }

    static let tooManySignIns = APIError(
        status: .serviceUnavailable, code: "busy", message: "too many sign-ins at once; try again in a moment",
        headers: [.retryAfter: "1"])
}

/// A large metrics file (an Apple export) is read on the pool, beside the photos and bcrypt.
extension CPUWorkPool: CPUWork {}
