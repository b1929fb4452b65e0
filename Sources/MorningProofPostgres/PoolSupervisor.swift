import Logging
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The store's pool of connections, watched so that no request waits long on it while PostgreSQL
/// cannot be reached, and replaced by a new one as soon as PostgreSQL answers again.
///
/// postgres-nio's pool keeps a request waiting for a connection until one opens, or for a minute
/// when none can (its circuit breaker), and after a long outage tries again only every minute or
/// so. So while requests wait and the pool hands out no connection for `wait`, the supervisor
/// opens a connection of its own. If that fails too, PostgreSQL is down: the pool is shut down
/// (the requests waiting on it fail), every request fails at once with the reason, and a probe
/// runs every second until it connects, when a new pool takes over. A pool that is only slow
/// (every connection busy) is left alone, since the probe connects, or is refused only because
/// PostgreSQL has no connection slot free.
final class PoolSupervisor: Sendable {
    private struct State {
        /// The pool requests lease from: the running one, or the last one during an outage.
        var client: PostgresClient
        /// The task running `client`, from `run()` on.
        var running: Task<Void, Never>?
        /// Why PostgreSQL cannot be reached, while it cannot: every request fails with it at once.
        var outage: StoreError?
    }

    let url: PostgresURL
    let poolSize: Int
    /// How long requests may wait with no connection handed out before PostgreSQL is probed, and
    /// how long the probe waits for it.
    let wait: Duration
    let logger: Logger
    private let state: Locked<State>
    /// Requests waiting for a connection now.
    private let waiting = Atomic<Int>(0)
    /// Connections handed out so far (wrapping): the pool's progress, and each lease's number.
    private let handedOut = Atomic<UInt64>(0)
    /// The requests running on leased connections, by their lease's number.
    private let inFlight = Locked<[UInt64: InFlight]>([:])

    /// How often the watch looks at the pool, and how often a probe runs during an outage.
    static let tick: Duration = .milliseconds(250)
    static let probeInterval: Duration = .seconds(1)
    /// How long a request may still run on a connection PostgreSQL has closed before it is given up.
    static let lostAfter: Duration = .milliseconds(500)
    /// PostgreSQL's SQLSTATE for "sorry, too many clients already".
    static let tooManyConnections = "53300"

    init(url: PostgresURL, poolSize: Int, wait: Duration, logger: Logger) {
        self.url = url
        self.poolSize = poolSize
        self.wait = wait
        self.logger = logger
        state = Locked(State(client: Self.makeClient(url: url, poolSize: poolSize)))
    }

    /// A pool that logs nothing of its own: while PostgreSQL is down it would log every failed
    /// connection attempt, where the supervisor says once that it is down and once that it is back.
    private static func makeClient(url: PostgresURL, poolSize: Int) -> PostgresClient {
        PostgresClient(
            configuration: url.clientConfiguration(poolSize: poolSize), backgroundLogger: PostgresStore.silent)
    }

    /// The pool requests lease from now.
    var client: PostgresClient { state.withLock { $0.client } }

    /// Runs `body` on a pooled connection. While PostgreSQL is known to be down it throws why at
    /// once; a request that got no connection throws `StoreError(.unavailable)`; `body`'s own
    /// errors pass through.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws
        -> T
    {
        let client = try state.withLock { state in
            if let outage = state.outage { throw outage }
            return state.client
        }
        waiting.add(1, ordering: .relaxed)
        var leased = false
        defer { if !leased { waiting.subtract(1, ordering: .relaxed) } }
        do {
            return try await client.withConnection { connection in
                leased = true
                waiting.subtract(1, ordering: .relaxed)
                let lease = handedOut.wrappingAdd(1, ordering: .relaxed).newValue
                // A connection PostgreSQL has just closed, which the pool has not yet heard of: no
                // query is written to it, since one could be lost (see `untilLost`).
                guard !connection.isClosed else {
                    throw PostgresErrors.unreachable(url, "PostgreSQL closed the connection")
                }
                return try await untilLost(connection, lease: lease, body)
            }
        } catch  where !leased && !(error is CancellationError) {
            // The pool gave no connection: shut down for an outage, or given up on its own.
            throw state.withLock { $0.outage } ?? PostgresErrors.unreachable(url, PostgresErrors.reason(of: error))
        }
    }

    /// A request running on a leased connection, which the watch gives up on once the connection
    /// has been closed for `lostAfter` while the request still runs.
    /// Whoever takes it out of `inFlight` (the request's task when it ends, or the watch when it
    /// gives up) resumes the request, once.
    private struct InFlight: Sendable {
        let connection: PostgresConnection
        let abandon: @Sendable (StoreError) -> Void
        var closedSince: ContinuousClock.Instant?
    }

    /// Runs `body` on `connection` in a task of its own and returns what it returns, or throws what
    /// it throws; but when PostgreSQL has closed the connection and `body` still runs `lostAfter`
    /// later, throws that PostgreSQL cannot be reached and leaves the task behind. postgres-nio 1.33
    /// can lose a query that is in flight when the server ends its connection (a fast shutdown), and
    /// the request would otherwise wait for ever, holding up the server's graceful shutdown too.
    private func untilLost<T: Sendable>(
        _ connection: PostgresConnection, lease: UInt64,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let task = Locked<Task<Void, Never>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                inFlight.withLock {
                    $0[lease] = InFlight(connection: connection, abandon: { continuation.resume(throwing: $0) })
                }
                task.withLock { running in
                    running = Task {
                        let result: Result<T, any Error>
                        do {
                            result = .success(try await body(connection))
                        } catch {
                            result = .failure(error)
                        }
                        if self.inFlight.withLock({ $0.removeValue(forKey: lease) }) != nil {
                            continuation.resume(with: result)
                        }
                    }
                }
            }
        } onCancel: {
            task.withLock { $0 }?.cancel()
        }
    }

    /// Gives up on the requests whose connection has been closed for `lostAfter` (see `untilLost`).
    private func abandonLostRequests(now: ContinuousClock.Instant) {
        let lost = inFlight.withLock { requests -> [InFlight] in
            var lost: [InFlight] = []
            for (id, request) in requests where request.connection.isClosed {
                if let since = request.closedSince {
                    if now - since >= Self.lostAfter {
                        lost.append(request)
                        requests[id] = nil
                    }
                } else {
                    requests[id]?.closedSince = now
                }
            }
            return lost
        }
        for request in lost {
            request.abandon(
                PostgresErrors.unreachable(url, "PostgreSQL closed the connection while a query was under way"))
        }
    }

    /// Runs the pool and watches it until the task is cancelled or the service group shuts down
    /// gracefully, then stops the pool. Call it once.
    func run() async {
        state.withLock { state in
            precondition(state.running == nil, "PostgresStore.run() is called once")
            state.running = Self.start(state.client)
        }
        try? await cancelWhenGracefulShutdown { try await self.watch() }
        let running = state.withLock { $0.running }
        running?.cancel()
        await running?.value
    }

    private static func start(_ client: PostgresClient) -> Task<Void, Never> {
        Task { await client.run() }
    }

    /// Looks at the pool every tick until cancelled: probes PostgreSQL when the pool has stalled,
    /// and every second during an outage.
    private func watch() async throws {
        var seen = handedOut.load(ordering: .relaxed)
        var stalled: Duration = .zero
        while true {
            try await Task.sleep(for: Self.tick)
            abandonLostRequests(now: .now)
            if state.withLock({ $0.outage }) != nil {
                if await probe() == nil {
                    recover()
                    seen = handedOut.load(ordering: .relaxed)
                    stalled = .zero
                } else {
                    try await Task.sleep(for: Self.probeInterval - Self.tick)
                }
                continue
            }
            let now = handedOut.load(ordering: .relaxed)
            stalled = waiting.load(ordering: .relaxed) > 0 && now == seen ? stalled + Self.tick : .zero
            seen = now
            guard stalled >= wait else { continue }
            stalled = .zero
            if let failure = await probe() { fail(failure) }
        }
    }

    /// Opens and closes a connection outside the pool: nil when PostgreSQL answered, else why not.
    /// A server that refuses the probe only because every connection slot is taken answers: the
    /// pool's own connections are busy, not gone.
    private func probe() async -> StoreError? {
        do {
            var configuration = try url.connectionConfiguration()
            configuration.options.connectTimeout = TimeAmount(wait)
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: 0, logger: PostgresStore.silent)
            try? await connection.close()
            return nil
        } catch let error as PSQLError {
            if error.serverInfo?[.sqlState] == Self.tooManyConnections { return nil }
            return PostgresErrors.storeError(error, url: url)
        } catch {
            return PostgresErrors.unreachable(url, PostgresErrors.reason(of: error))
        }
    }

    /// PostgreSQL is down: requests fail at once with `failure`, and the pool's waiting ones too.
    private func fail(_ failure: StoreError) {
        logger.error("PostgreSQL unavailable: \(failure.message)")
        let stopped = state.withLock { state in
            state.outage = failure
            defer { state.running = nil }
            return state.running
        }
        stopped?.cancel()
    }

    /// PostgreSQL answers again: a new pool, with no backoff left from the outage, takes requests.
    private func recover() {
        logger.notice("PostgreSQL at \(url) answers again")
        let client = Self.makeClient(url: url, poolSize: poolSize)
        state.withLock { state in
            state.client = client
            state.running = Self.start(client)
            state.outage = nil
        }
    }
}
