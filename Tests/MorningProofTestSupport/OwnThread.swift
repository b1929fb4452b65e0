import Foundation

/// Where the tests call the synchronous `HabitStore`: on threads of their own, as the server calls
/// it on NIO's thread pool, never on Swift's cooperative pool, which PostgreSQL's store needs free
/// while it blocks its caller (`PostgresStore.blocking`).
public enum OwnThread {
    /// Runs `body` on a new thread, in the calling task, so that `#expect` still reports to the test.
    public static func run<T>(_ body: () throws -> T) async throws -> T {
        try await withTaskExecutorPreference(ThreadPerJob()) { try body() }
    }

    /// Runs each job of the tasks that prefer it on a new thread.
    final class ThreadPerJob: TaskExecutor {
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            Thread { job.runSynchronously(on: executor) }.start()
        }
    }
}
