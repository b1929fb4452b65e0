import Logging
import ServiceLifecycle

/// `morningproof watch` as a service: a pass at start, then one per interval on an injected
/// clock, until a graceful shutdown (SIGTERM, SIGINT) calls `stopPass` (which cuts the current
/// pass short: its hook is killed) and ends it.
public struct WatchService<C: Clock>: Service where C.Duration == Duration {
    public var interval: Duration
    public var clock: C
    public var logger: Logger
    /// One pass; it reports its own problems (a bad file is a warning, never the end of the loop).
    public var pass: @Sendable () async -> Void
    /// Called once when a graceful shutdown begins, on another task than the pass.
    public var stopPass: @Sendable () -> Void
    /// What the log calls the loop ("watching", "notifying").
    public var name: String

    public init(
        interval: Duration, clock: C, logger: Logger, name: String = "watching",
        pass: @escaping @Sendable () async -> Void, stopPass: @escaping @Sendable () -> Void = {}
    ) {
        self.name = name
        self.interval = interval
        self.clock = clock
        self.logger = logger
        self.pass = pass
        self.stopPass = stopPass
    }

    public func run() async throws {
        logger.info("\(name): a pass every \(interval)")
        var passes = 0
        let stopPass = self.stopPass, pass = self.pass
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await withGracefulShutdownHandler {
                await pass()
            } onGracefulShutdown: {
                stopPass()
            }
            passes += 1
            if passes == 1 { logger.info("first pass done") }
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
            let clock = self.clock, interval = self.interval
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
            } catch {
                break  // the sleep was cancelled: shutting down
            }
        }
        logger.info("stopped after \(passes) \(passes == 1 ? "pass" : "passes")")
    }
}
