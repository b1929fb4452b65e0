import Foundation
import Logging
import MorningProofCore
import ServiceLifecycle

/// The notification pass every interval, as a service beside the HTTP server (`serve
/// --notify-interval`) or alone (`notify` without `--once`): a pass at start, then one every
/// interval, until a graceful shutdown. A pass does not wait for the previous one: an account that
/// pass is still visiting (a slow endpoint) is skipped, and the others are served on time; at most
/// `passesAtOnce` run together. A pass that fails (the database is away) is logged, and the next
/// one tries again.
public enum NotificationPassService {
    /// Passes running at once, at most: a tick that finds this many still running starts none.
    public static let passesAtOnce = 4

    public static func service(
        _ pass: NotificationPass, interval: Duration, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) -> some Service {
        NotificationPassLoop(interval: interval, logger: logger) {
            do {
                let report = try await pass.run(at: now())
                if report.delivered > 0 || !report.failures.isEmpty || report.removedSubscriptions > 0 {
                    logger.info("\(report.text)")
                }
            } catch {
                logger.error("notification pass: \(error)")
            }
        }
    }
}

/// Starts `pass` every `interval` on the continuous clock, each beside the ones still running (at
/// most `NotificationPassService.passesAtOnce`); on a graceful shutdown starts no more and waits
/// for those running.
struct NotificationPassLoop: Service {
    var interval: Duration
    var logger: Logger
    var pass: @Sendable () async -> Void

    func run() async throws {
        logger.info("notifying: a pass every \(interval)")
        let running = Locked(0)
        let finished = Locked(0)
        let logger = self.logger, pass = self.pass
        var started = 0
        await withDiscardingTaskGroup { group in
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                let room = running.withLock { count in
                    guard count < NotificationPassService.passesAtOnce else { return false }
                    count += 1
                    return true
                }
                if room {
                    started += 1
                    group.addTask {
                        await pass()
                        running.withLock { $0 -= 1 }
                        if finished.withLock({ count in
                            count += 1
                            return count
                        }) == 1 {
                            logger.info("first pass done")
                        }
                    }
                } else {
                    logger.debug(
                        "notifying: \(NotificationPassService.passesAtOnce) passes still running, none started")
                }
                do {
                    try await cancelWhenGracefulShutdown { try await ContinuousClock().sleep(for: interval) }
                } catch {
                    break  // the sleep was cancelled: shutting down
                }
            }
        }
        logger.info("stopped after \(started) \(started == 1 ? "pass" : "passes")")
    }
}

extension NotificationPass.Report {
    /// "notify: 2 accounts, 3 delivered, 1 failed, 0 subscriptions removed, 0 goals completed", then
    /// one line per failure.
    public var text: String {
        let summary =
            "notify: \(accounts) \(accounts == 1 ? "account" : "accounts"), \(delivered) delivered, "
            + "\(failures.count) failed, \(removedSubscriptions) \(removedSubscriptions == 1 ? "subscription" : "subscriptions") removed, "
            + "\(completed) \(completed == 1 ? "goal" : "goals") completed"
        return ([summary] + failures.map { "  failed: \($0)" }).joined(separator: "\n")
    }

    /// The report as one line of JSON with sorted keys.
    public func json() -> String { (try? SortedJSON.string(self)) ?? "{}" }
}
