/// Where a use case runs work that holds a core for long (reading a large Apple export): the
/// server's bounded pool, so that one upload never takes the threads other requests answer on.
/// Without one, the work runs on the caller's task (a command has nothing else to answer).
public protocol CPUWork: Sendable {
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T

    /// Waits, `limit` at most (and the pool's own bound), while work that must not wait (a
    /// sign-in's password hashing) runs: what this work asks of another process (the database
    /// writing an upload's chunk) then leaves the cores to it, as the pool's own threads do by
    /// their lower priority. Returns how long it waited.
    func yieldToUrgentWork(atMost limit: Duration) async -> Duration
}

extension CPUWork {
    public func yieldToUrgentWork(atMost limit: Duration) async -> Duration { .zero }
}
