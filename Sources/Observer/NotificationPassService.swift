import Foundation
import Logging
import MorningProofCore
import ServiceLifecycle

/// The notification pass every interval, as a service beside the HTTP server (`serve
/// --notify-interval`) or alone (`notify` without `--once`): a pass at start, then one per interval,
/// until a graceful shutdown. A pass that fails (the database is away) is logged, and the next
/// one tries again.
public enum NotificationPassService {
    public static func service(
        _ pass: NotificationPass, interval: Duration, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) -> some Service {
        WatchService(
            interval: interval, clock: ContinuousClock(), logger: logger, name: "notifying",
            pass: {
                do {
                    let report = try await pass.run(at: now())
                    if report.delivered > 0 || !report.failures.isEmpty || report.removedSubscriptions > 0 {
                        logger.info("\(report.text)")
                    }
                } catch {
                    logger.error("notification pass: \(error)")
                }
            })
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
