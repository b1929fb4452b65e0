/// Where a use case runs work that holds a core for long (reading a large Apple export): the
/// server's bounded pool, so that one upload never takes the threads other requests answer on.
/// Without one, the work runs on the caller's task (a command has nothing else to answer).
public protocol CPUWork: Sendable {
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T
}
