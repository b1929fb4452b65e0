import Foundation
import Logging
import MorningProofCore
import MorningProofStoreContract
import MorningProofService

extension CheckPass {
    /// The pass `check` and `watch` run: the watched files and the notification hook as the database's
    /// settings give them now.
    public static func configured(_ database: any CheckPassStore, clock: DayClock, stop: ShutdownRequest? = nil) async throws
        -> CheckPass
    {
        await CheckPass(
            database: database, clock: clock, sources: .live(database: database, clock: clock),
            hook: try NotifySettings.hookRunner(in: database), stop: stop)
    }
}

/// The passes of `watch`: each reads the settings afresh, runs a check pass, hands its events to
/// `emit` and logs what it did. A file that stays bad is warned about once, not every interval, and
/// a failing pass is logged without ending the loop.
public final class WatchPasses: Sendable {
    let database: any CheckPassStore
    let logger: Logger
    /// How far the loop's "now" is from real time: with `--now` the loop replays from that moment.
    let offset: TimeInterval
    let emit: @Sendable (NotificationEvent) -> Void
    /// The warnings of the previous pass.
    private let seen = Locked(Set<String>())
    /// Requested by `stop()`: ends the running pass and its hook.
    private let shutdown = ShutdownRequest()

    public init(
        database: any CheckPassStore, startingAt now: Date, logger: Logger,
        emit: @escaping @Sendable (NotificationEvent) -> Void
    ) {
        self.database = database
        self.logger = logger
        self.offset = now.timeIntervalSince(Date())
        self.emit = emit
    }

    /// One pass at the loop's now.
    public func run() async {
        do {
            if shutdown.isRequested { return }
            let pass = try await CheckPass.configured(database, clock: try await database.clock(), stop: shutdown)
            let report = try await pass.run(at: Date().addingTimeInterval(offset), emit: emit)
            let fresh = freshWarnings(report.scan.warnings)
            for warning in report.scan.warnings {
                if fresh.contains(warning) { logger.warning("\(warning)") } else { logger.debug("\(warning)") }
            }
            for failure in report.failures { logger.warning("notification not delivered: \(failure)") }
            let summary: Logger.Message =
                "pass: \(report.scan.filesRead) files read, \(report.scan.recordsRead) records, \(report.completed.count) days completed, \(report.delivered.count) delivered"
            if report.isQuiet && report.scan.filesRead == 0 { logger.debug(summary) } else { logger.info(summary) }
        } catch {
            logger.error("pass failed: \(error)")
        }
    }

    /// Ends the running pass (its hook is killed with its process group) and any later one, at
    /// once: for a shutdown that must not wait for a hook's timeout. Safe from any thread.
    public func stop() { shutdown.request() }

    /// Stores this pass's warnings; returns those the previous pass did not have.
    func freshWarnings(_ warnings: [String]) -> Set<String> {
        let now = Set(warnings)
        return seen.withLock { last in
            defer { last = now }
            return now.subtracting(last)
        }
    }
}
