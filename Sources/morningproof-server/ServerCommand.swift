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

/// `morningproof-server`: serves the database over HTTP, and makes tokens for scripts.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "morningproof-server",
        abstract: "Serve MorningProof over HTTP: accounts, tokens and the daily check-in.",
        discussion: """
            The default database is the CLI's (--db, else MORNINGPROOF_DB, else \
            $XDG_DATA_HOME/morningproof/morningproof.sqlite): its data is the owner account, account 1. \
            With --database-url (or MORNINGPROOF_DATABASE_URL) `serve` and `token` use PostgreSQL \
            instead (postgres://USER@HOST:PORT/DATABASE), which any number of server processes can share; \
            `db copy` moves a SQLite database there. Exit codes: 0 ok (also after SIGTERM or SIGINT), 64 usage, 65 a \
            source that is not a whole MorningProof database, 66 no such file, 74 database or I/O failure, \
            75 database busy.
            """,
        subcommands: [Serve.self, TokenCommand.self, DatabaseCommand.self, NotifyCommand.self, AccountCommand.self],
        defaultSubcommand: Serve.self)

    /// Runs `body`; a MorningProof error, or a lower layer's (a store's), becomes one line on stderr
    /// and its kind's exit code.
    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            guard let error = MorningProofError(error) else { throw error }
            FileHandle.standardError.write(Data("morningproof-server: \(error.message)\n".utf8))
            throw ExitCode(error.kind.exitCode)
        }
    }
}

/// `--db` and `--database-url`, shared by every subcommand: the CLI's SQLite file, or a PostgreSQL
/// database.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(DatabaseLocation.optionHelp, valueName: "path"))
    var path: String?

    @Option(
        name: .customLong("database-url"),
        help: ArgumentHelp(
            "A PostgreSQL database instead of the SQLite file: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE "
                + "(default: MORNINGPROOF_DATABASE_URL, unless --db is given).",
            valueName: "url"))
    var url: String?

    func validate() throws {
        if path != nil && url != nil { throw ValidationError("give --db or --database-url, not both") }
    }

    /// The PostgreSQL database named by --database-url, else by MORNINGPROOF_DATABASE_URL when no
    /// --db is given; nil for the SQLite file.
    func postgresURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let url { return url }
        guard path == nil, let fromEnvironment = environment["MORNINGPROOF_DATABASE_URL"], !fromEnvironment.isEmpty
        else { return nil }
        return fromEnvironment
    }

    func open() throws -> AppDatabase {
        try AppDatabase.open(path: DatabaseLocation.resolve(explicit: path))
    }

    /// The PostgreSQL database chosen, migrated (its pool not yet running); nil for the SQLite file.
    func postgres(
        poolSize: Int, connectionWait: Duration = PostgresStore.defaultConnectionWait,
        logger: Logger = PostgresStore.silent
    ) async throws -> PostgresStore? {
        guard let url = postgresURL() else { return nil }
        let store = try PostgresStore(url: url, poolSize: poolSize, connectionWait: connectionWait, logger: logger)
        try await store.migrate()
        return store
    }

    /// Runs `body` with the accounts of the chosen engine: the SQLite file, or the PostgreSQL
    /// database (created or migrated first, its pool running while `body` runs).
    func withAccounts<T: Sendable>(_ body: (any AccountStore) async throws -> T) async throws -> T {
        guard let store = try await postgres(poolSize: 2) else { return try await body(try open()) }
        return try await store.whileRunning { try await body(store) }
    }
}

extension ServerCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve", abstract: "Serve the API until SIGTERM or SIGINT (the default).")

        @OptionGroup var database: DatabaseOption

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0: any free port, printed once listening).")
        var port = 8080

        @Flag(help: "Honour X-MorningProof-Now: <ISO 8601> as the request's moment (tests and demos only).")
        var allowClockHeader = false

        @Option(
            name: .customLong("db-pool"),
            help: ArgumentHelp(
                "How many database connections read at once (SQLite: writes take one more, one at a time; "
                    + "PostgreSQL: the pool's size, per server process).",
                valueName: "n"))
        var readers = 4

        @Option(
            name: .customLong("db-wait"),
            help: ArgumentHelp(
                "PostgreSQL: after this many seconds in which requests wait and no connection frees up, the "
                    + "database is checked; if it cannot be reached, those requests and the next ones get 503 at "
                    + "once until it answers again (checked every second).",
                valueName: "seconds"))
        var connectionWait = 3.0

        @Option(help: ArgumentHelp("bcrypt's cost for new passwords, 4 to 31.", visibility: .hidden))
        var bcryptCost = 12

        @Option(
            name: .customLong("cpu-queue"),
            help: ArgumentHelp(
                "CPU-heavy requests (photo proofs, metric files) that may wait for a core, one per core "
                    + "running besides; more get 503 with Retry-After.",
                valueName: "n"))
        var cpuQueueLimit = 32

        @Option(
            name: .customLong("photo-uploads"),
            help: ArgumentHelp(
                "Photo proofs read and judged at once (each holds up to 25 MB until judged); more get 503 "
                    + "with Retry-After before their body is read.",
                valueName: "n"))
        var photoUploadLimit = 8

        @Option(
            name: .customLong("metrics-limit"),
            help: ArgumentHelp(
                "The largest body POST /api/metrics reads that is not an Apple export (Health Auto Export JSON, "
                    + "JSON Lines, CSV): bytes, or with KB, MB or GB (1 MB = 1,048,576 bytes); more gets 413.",
                valueName: "size"))
        var metricsLimit = "50MB"

        @Option(
            name: .customLong("metrics-export-limit"),
            help: ArgumentHelp(
                "The largest Apple Health export (export.zip or export.xml, alone or in a form) POST /api/metrics "
                    + "reads, as --metrics-limit; more gets 413.",
                valueName: "size"))
        var metricsExportLimit = "512MB"

        @Option(
            name: .customLong("metrics-uploads"),
            help: ArgumentHelp(
                "Metric uploads received and read at once, by all accounts (each written to a private "
                    + "temporary file, up to the export limit); more get 503 with Retry-After before their body is read.",
                valueName: "n"))
        var metricsUploadLimit = 2

        @Option(
            name: .customLong("signups-per-hour"),
            help: ArgumentHelp(
                "Sign-ups allowed from one address in an hour; more get 429 with Retry-After.", valueName: "n"))
        var signUpsPerHour = SignInLimits().signUpsPerAddress

        @Option(
            name: .customLong("notify-interval"),
            help: ArgumentHelp(
                "Seconds between the server's notification passes (reminders due, at-most goals whose day ended, "
                    + "goal alerts waiting; see `notify --help`); 0 turns the pass off, for a separate `notify`.",
                valueName: "seconds"))
        var notifyInterval = 60

        @OptionGroup(title: "Notifications") var delivery: DeliveryOptions

        @OptionGroup(title: "Connections") var connections: ConnectionOptions

        @OptionGroup(title: "Behind a reverse proxy") var proxy: ProxyOptions

        @OptionGroup(title: "HTTPS") var tls: TLSOptions

        @OptionGroup(title: "Certificates from an ACME CA (Let's Encrypt)") var acme: ACMEOptions

        @OptionGroup(title: "Password-reset mail") var mail: MailOptions

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
            guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be 4 to 31") }
            guard (1...64).contains(readers) else { throw ValidationError("--db-pool must be 1 to 64") }
            guard (0...10_000).contains(cpuQueueLimit) else { throw ValidationError("--cpu-queue must be 0 to 10000") }
            guard (1...1_000).contains(photoUploadLimit) else {
                throw ValidationError("--photo-uploads must be 1 to 1000")
            }
            guard (1...1_000_000).contains(signUpsPerHour) else {
                throw ValidationError("--signups-per-hour must be 1 to 1000000")
            }
            _ = try ByteSize.parse(metricsLimit, option: "--metrics-limit")
            _ = try ByteSize.parse(metricsExportLimit, option: "--metrics-export-limit")
            guard (1...1_000).contains(metricsUploadLimit) else {
                throw ValidationError("--metrics-uploads must be 1 to 1000")
            }
            guard (0.25...300).contains(connectionWait) else {
                throw ValidationError("--db-wait must be 0.25 to 300 seconds")
            }
            guard (0...86_400).contains(notifyInterval) else {
                throw ValidationError("--notify-interval must be 0 to 86400 seconds")
            }
        }

        /// Says where the server listens, on stdout, so a script that asked for port 0 learns the port.
        static func announce(_ database: String, scheme: String = "http") -> @Sendable (String, Int) async -> Void {
            { host, port in
                let line = "morningproof-server: listening on \(scheme)://\(host):\(port) (database \(database))\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
        }

        func run() async throws {
            LoggingSystem.bootstrap(StreamLogHandler.standardError)
            var logger = Logger(label: "morningproof-server")
            logger.logLevel = .info
            try await ServerCommand.reporting {
                var configuration = ServerConfiguration(
                    host: host, port: port, allowClockHeader: allowClockHeader, bcryptCost: bcryptCost,
                    connections: connections.limits(logger: logger))
                configuration.cpuQueueLimit = cpuQueueLimit
                configuration.photoUploadLimit = photoUploadLimit
                configuration.signInLimits.signUpsPerAddress = signUpsPerHour
                configuration.metricsLimit = try ByteSize.parse(metricsLimit, option: "--metrics-limit")
                configuration.metricsExportLimit = try ByteSize.parse(
                    metricsExportLimit, option: "--metrics-export-limit")
                configuration.metricsUploadLimit = metricsUploadLimit
                configuration.allowLocalNotifyTargets = delivery.allowLocalNotifyTargets
                configuration.trustedProxies = try proxy.trusted()
                configuration.publicURL = try proxy.checkedPublicURL()
                configuration.resetMail = try mail.mailer(publicURL: configuration.publicURL)
                configuration.loopBackupReader = SQLiteLoopBackupReader()
                var delivery = delivery
                delivery.appURL = delivery.appURL ?? configuration.publicURL
                try tls.apply(to: &configuration)
                try acme.apply(to: &configuration, database: database)
                let served = try await database.served(
                    readers: readers, connectionWait: .milliseconds(Int64(connectionWait * 1000)), logger: logger)
                let identity = try await served.pushIdentity(contact: delivery.pushContact, logger: logger)
                configuration.vapidIdentity = identity
                let sender = delivery.sender(identity: identity, logger: logger)
                configuration.channelDelivery = sender
                // The database's own services (PostgreSQL's pool) run beside the HTTP server and stop
                // after it: a ServiceGroup shuts its services down in reverse order.
                var services = served.services
                services.append(
                    MorningProofServer.application(
                        accounts: served.accounts, habits: { served.account($0) },
                        signInFailures: served.signInFailures,
                        configuration: configuration, logger: logger,
                        onRunning: Self.announce(served.name, scheme: configuration.tls == nil ? "http" : "https")))
                services += TLSOptions.renewal(configuration, logger: logger)
                services += ACMEOptions.renewal(configuration, logger: logger)
                services += notifyPass(
                    store: served.accounts, account: { served.account($0) }, sender: sender, logger: logger)
                let group = ServiceGroup(
                    configuration: .init(
                        services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                do {
                    try await group.run()
                } catch {
                    await sender.shutdown()
                    // A service's own error (the first ACME order refused) says itself.
                    if let known = MorningProofError(error) { throw known }
                    throw MorningProofError.ioError("cannot serve on \(host):\(port): \(error)")
                }
                await sender.shutdown()
            }
        }

        /// The notification pass every --notify-interval seconds, as a service after the HTTP server
        /// (so stopped before it); none with 0.
        private func notifyPass(
            store: any NotificationPassStore, account: @escaping @Sendable (Int64) -> NotificationPass.AccountStore,
            sender: HTTPChannelSender, logger: Logger
        ) -> [any Service] {
            guard notifyInterval > 0 else { return [] }
            let pass = NotificationPass(store: store, account: account, delivery: sender)
            return [NotificationPassService.service(pass, interval: .seconds(notifyInterval), logger: logger)]
        }
    }
}
