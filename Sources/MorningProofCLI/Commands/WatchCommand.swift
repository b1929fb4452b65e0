import ArgumentParser
import Foundation
import Logging
import MorningProofCore
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
            stderr. A bad file is a warning and the loop goes on. SIGTERM or SIGINT ends the \
            current pass (a hook still running is killed), then exits 0. Running `check` from cron at the same time is safe: \
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
            // At most a day: a longer one would also overflow the milliseconds the loop waits.
            guard let seconds = IntervalText.seconds(interval), seconds >= 1, seconds <= 86_400 else {
                throw MorningProofError.usage("bad --interval \"\(interval)\": use 30s, 5m or 1h (1s to 24h)")
            }
        }
    }

    func run() async throws {
        let session = try await global.session()
        let seconds = IntervalText.seconds(interval)!
        var logger = Logger(label: "morningproof.watch") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel =
            ProcessInfo.processInfo.environment["MORNINGPROOF_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
            ?? .info
        let json = session.json
        let passes = WatchPasses(database: session.database, startingAt: session.now, logger: logger) { event in
            json ? Console.outJSON(event.json()) : Console.out(event.line)
        }
        let service = WatchService(
            interval: .milliseconds(Int64(seconds * 1000)), clock: ContinuousClock(), logger: logger,
            pass: { await passes.run() }, stopPass: { passes.stop() })
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
