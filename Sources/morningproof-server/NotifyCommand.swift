import ArgumentParser
import Foundation
import Logging
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofServer
import MorningProofService
import MorningProofStoreContract
import NotificationDelivery
import Observer
import ServiceLifecycle

/// `morningproof-server notify`: the notification pass without the HTTP server, once (cron, tests)
/// or every interval (a systemd service beside the servers).
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Deliver the reminders and goal alerts due now to every account's phone (Web Push, ntfy, webhook).",
        discussion: """
            One pass finds, across all accounts with a time zone, the reminders whose time has come \
            (the habit due and still empty today), the at-most goals whose day has ended, and the \
            goal alerts that an upload or an entry claimed but no pass delivered yet; each goes to the \
            account's channels once per habit and day, however many servers and `notify` processes \
            share the database (each claims it in the database first). A failed delivery is tried \
            again after 1, 2, 4 and 8 minutes, then given up for the day. `serve` runs the same pass \
            every --notify-interval seconds. Exit codes: 0 ok (also when a delivery failed: it is \
            printed, and retried), 64 usage, 74 database failure, 75 database busy.
            Example (cron, every minute): morningproof-server notify --once --database-url postgres://...
            """)

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Run one pass and exit (else one every --interval seconds until SIGTERM or SIGINT).")
    var once = false

    @Option(help: ArgumentHelp("Seconds between passes without --once.", valueName: "seconds"))
    var interval = 60

    @Option(
        help: ArgumentHelp(
            "Run the pass as if it were this moment: ISO 8601 with an offset or Z, e.g. 2026-03-08T07:30:00-05:00 "
                + "(tests and replays; claims still carry the real time).",
            valueName: "instant"))
    var now: String?

    @OptionGroup(title: "Delivery") var delivery: DeliveryOptions

    @Flag(help: "Print the pass's report as JSON.")
    var json = false

    @Flag(help: "With --once, also warn about the setup (no --push-contact), which `serve` says at its start.")
    var verbose = false

    func validate() throws {
        guard (1...86_400).contains(interval) else { throw ValidationError("--interval must be 1 to 86400 seconds") }
        if once == false, now != nil { throw ValidationError("--now goes with --once") }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "morningproof-server")
        logger.logLevel = .info
        try await ServerCommand.reporting {
            let instant = try now.map { try ISOInstant.read($0, field: "--now") }
            if let store = try await database.postgres(poolSize: 16, logger: logger) {
                try await store.whileRunning {
                    try await passes(store: store, account: { store.scoped(to: $0) }, at: instant, logger: logger)
                }
            } else {
                let store = try AppDatabase.openShared(
                    path: DatabaseLocation.resolve(explicit: database.path), readers: 4)
                try await passes(store: store, account: { store.scoped(to: $0) }, at: instant, logger: logger)
            }
        }
    }

    /// One pass (`--once`), printed; or a pass every interval until a signal.
    private func passes(
        store: any NotificationPassStore & VAPIDIdentityStore,
        account: @escaping @Sendable (Int64) -> NotificationPass.AccountStore, at instant: Date?, logger: Logger
    ) async throws {
        // From cron (--once every minute) a missing push contact is said at setup, not on every run.
        var setupLogger = logger
        if once, !verbose { setupLogger.logLevel = .error }
        let identity = try await PushIdentity.load(from: store, contact: delivery.pushContact, logger: setupLogger)
        let sender = delivery.sender(identity: identity, logger: logger)
        let pass = NotificationPass(store: store, account: account, delivery: sender)
        do {
            if once {
                let report = try await pass.run(at: instant ?? Date())
                print(json ? report.json() : report.text)
            } else {
                let loop = NotificationPassService.service(
                    pass, interval: .seconds(interval), logger: logger)
                try await ServiceGroup(
                    configuration: .init(
                        services: [loop], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
                ).run()
            }
        } catch {
            await sender.shutdown()
            throw error
        }
        await sender.shutdown()
    }
}

/// How the notification pass delivers, for `serve` and `notify`.
struct DeliveryOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Allow notification targets (push endpoints, ntfy, webhooks) over http and on loopback, private and "
                + "link-local addresses: tests and demos only."))
    var allowLocalNotifyTargets = false

    @Option(
        help: ArgumentHelp(
            "The web app's public URL (https://…), which an ntfy notification opens when tapped.", valueName: "url"))
    var appURL: String?

    @Option(
        name: .customLong("push-contact"),
        help: ArgumentHelp(
            "How push services reach you, in each Web Push request: mailto:ADDRESS or an https URL "
                + "(not localhost: Apple refuses it). Kept in the database for every server process.",
            valueName: "contact"))
    var pushContact: String?

    func validate() throws {
        if let pushContact {
            do {
                _ = try PushContact.checked(pushContact)
            } catch let error as MorningProofError {
                throw ValidationError(error.message)
            }
        }
        if let appURL, URL(string: appURL)?.scheme.map({ ["http", "https"].contains($0.lowercased()) }) != true {
            throw ValidationError("--app-url needs an http or https URL, not \"\(appURL)\"")
        }
    }

    /// The HTTP sender, signing Web Push with `identity`.
    func sender(identity: VAPIDIdentity, logger: Logger) -> HTTPChannelSender {
        HTTPChannelSender(
            identity: identity, allowLocalTargets: allowLocalNotifyTargets, clickURL: appURL, logger: logger)
    }

    /// The HTTP sender, signing Web Push with the database's VAPID identity (made on first use).
    func sender(store: any VAPIDIdentityStore, logger: Logger) async throws -> HTTPChannelSender {
        sender(identity: try await PushIdentity.load(from: store, contact: pushContact, logger: logger), logger: logger)
    }
}
