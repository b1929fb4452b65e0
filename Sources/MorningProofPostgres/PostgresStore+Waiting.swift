import Dispatch
import MorningProofCore

extension PostgresStore {
    /// Runs `body` (asynchronous, as postgres-nio is) in a task and blocks the calling thread until
    /// it ends, returning what it returned or throwing what it threw: the one bridge between
    /// `HabitStore`'s synchronous calls and the pool.
    ///
    /// Call it only from a thread that may block: NIO's thread pool, where the server runs the
    /// store's calls (`NIOThreadPool.runIfActive`), or a thread of one's own. Never from Swift's
    /// cooperative pool (an `async` function's thread) or an event loop: the task it waits for
    /// runs on the cooperative pool and its queries on NIO's event loops, so a caller that blocks
    /// one of those can wait for itself (with every thread of the pool blocked, for ever).
    func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, any Error>?>(nil)
        Task {
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        // The task set the result before it signalled.
        return try result.withLock { $0 }!.get()
    }
}
