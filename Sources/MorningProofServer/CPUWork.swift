import NIOPosix

/// Where CPU-heavy request work runs (a form's parse today): never on an event loop or Swift's
/// cooperative pool, where two slow requests would stall every other one, `/health` included.
enum CPUWork {
    /// Runs `work` on a thread of its own pool and returns what it gives.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        // NIO's blocking pool until the server has a bounded pool for CPU-heavy work; this is the
        // one place to point at it.
        try await NIOThreadPool.singleton.runIfActive(work)
    }
}
