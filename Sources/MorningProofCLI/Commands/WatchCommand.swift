import ArgumentParser
import Foundation
import Logging
import MorningProofCore
import MorningProofStore
import Observer
import ServiceLifecycle

/// `morningproof watch`: the observer loop, for a systemd user service.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Run a check pass at start and then every interval, until SIGTERM or SIGINT.",
        discussion: """
            The long-running form of `morningproof check`: the same pass (read changed health \
            files, complete met goals, deliver goal.met and habit.reminder once a day), repeated. \
            Events go to stdout (JSON with --json) and the notify.hook script; the log goes to \
            stderr. A bad file is a warning and the loop goes on. SIGTERM or SIGINT lets the \
            current pass finish, then exits 0. Running `check` from cron at the same time is safe: \
            each notification is delivered once.

            Examples:
              morningproof watch
              morningproof watch --interval 5m
              systemctl --user enable --now morningproof-watch.service
            """)

    @Option(help: "Time between passes: 30s, 5m, 1h.")
    var interval = "60s"

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validating {
            guard let seconds = IntervalText.seconds(interval), seconds >= 1 else {
                throw MorningProofError.usage("bad --interval \"\(interval)\": use 30s, 5m or 1h (at least 1s)")
            }
        }
    }

    func run() async throws {
        let session = try global.session()
        let seconds = IntervalText.seconds(interval)!
        var logger = Logger(label: "morningproof.watch") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel =
            ProcessInfo.processInfo.environment["MORNINGPROOF_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
            ?? .info
        // With --now the loop replays from that moment, its clock running on from there.
        let started = Date()
        let offset = session.now.timeIntervalSince(started)
        let database = session.database, json = session.json, passLogger = logger
        let seen = SeenWarnings()
        let service = WatchService(
            interval: .milliseconds(Int64(seconds * 1000)), clock: ContinuousClock(), logger: logger
        ) {
            Self.pass(
                database: database, at: Date().addingTimeInterval(offset), json: json, logger: passLogger, seen: seen)
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// One pass: its problems are logged and the loop goes on.
    static func pass(database: AppDatabase, at now: Date, json: Bool, logger: Logger, seen: SeenWarnings) {
        do {
            let pass = try ObserverSetup.pass(database, clock: try database.clock())
            let report = try pass.run(at: now) { event in
                json ? Console.outJSON(event.json()) : Console.out(event.line)
            }
            // A file that stays bad is said once, not every interval.
            let fresh = seen.replace(with: report.scan.warnings)
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
}

/// The warnings of the previous pass, so that the log repeats none of them.
final class SeenWarnings: Sendable {
    private let last = Locked(Set<String>())

    /// Stores this pass's warnings; returns those the previous pass did not have.
    func replace(with warnings: [String]) -> Set<String> {
        let now = Set(warnings)
        return last.withLock { last in
            defer { last = now }
            return now.subtracting(last)
        }
    }
}
