import Foundation

/// Where the tests run code that blocks its thread (a raw socket client waiting for the server's
/// answer): on threads of their own, never on Swift's cooperative pool, which the server under test
/// needs free.
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
