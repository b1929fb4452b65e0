import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import NIOCore

// Where things are: one file per URL family, named after it (`HabitRoutes.swift` serves
// `/api/habits` and `/api/habits/{id}`, `EntryRoutes.swift` `/api/habits/{id}/entries...`,
// `StatsRoutes.swift` `/api/stats/...`, `WebRoutes.swift` the web app's files). The API's own
// response types live in `Responses/`, one file per family named like its routes
// (`Responses/HabitResponses.swift` for `HabitRoutes.swift`); the documents the CLI's `--json`
// prints too (`StatusJSON`, `HabitJSON`, ...) live in MorningProofService's `*Documents.swift`.

/// The HTTP front end: routes that decode, authenticate, call one use case and encode JSON.
public enum MorningProofServer {
    /// The application serving `database` (SQLite's `AppDatabase`): the accounts and each account's
    /// habits from one database. `realNow` is the clock for tokens and sign-in limits (tests move it), and `onRunning`
    /// hears the address once the server listens.
    public static func application(
        database: some AccountStore & PerAccountStore, configuration: ServerConfiguration, logger: Logger,
        realNow: @escaping @Sendable () -> Date = Date.init,
        onRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        application(
            accounts: database, habits: { database.scoped(to: $0) }, configuration: configuration, logger: logger,
            realNow: realNow, onRunning: onRunning)
    }

    /// The application serving the accounts of `accounts` and, for each signed-in account, the
    /// store `habits` gives for its id: either engine (SQLite's `AppDatabase`, PostgreSQL's
    /// `PostgresStore`, each `scoped(to:)` the id). Failed sign-ins are counted in `signInFailures`: this process's memory unless
    /// servers share them through their database, under `configuration.signInLimits`.
    public static func application(
        accounts: any AccountStore, habits: @escaping @Sendable (_ accountID: Int64) -> any PerAccountStore,
        signInFailures: any SignInFailureStore = MemorySignInFailures(),
        configuration: ServerConfiguration, logger: Logger, realNow: @escaping @Sendable () -> Date = Date.init,
        onRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }
    ) -> some ApplicationProtocol {
        // Uploads a killed server was reading: nobody will read them now.
        ReceivedFile.removeStale(in: configuration.uploadFolder)
        let cpuWork = CPUWorkPool(queueLimit: configuration.cpuQueueLimit, niceness: CPUWorkPool.heavyWorkNiceness)
        let passwordWork = CPUWorkPool.passwordHashing(
            threads: configuration.passwordHashingThreads, queueLimit: configuration.passwordQueueLimit)
        let hasher = BcryptPasswordHasher(cost: UInt8(clamping: configuration.bcryptCost), pool: passwordWork)
        let scope = RequestScope(
            accounts: AccountService(
                database: accounts, hasher: hasher,
                throttle: LoginThrottle(failures: signInFailures, limits: configuration.signInLimits)),
            habits: habits,
            configuration: configuration, realNow: realNow, cpuWork: cpuWork,
            photoUploads: ProofRoutes.photoUploads(limit: configuration.photoUploadLimit, cpu: cpuWork),
            metricUploads: BoundedAdmission(limit: configuration.metricsUploadLimit, perAccount: 1),
            importUploads: ImportRoutes.places(limit: configuration.importUploadLimit))
        var routes = RouteTable()
        SystemRoutes.add(to: &routes, configuration: configuration)
        WebRoutes.add(to: &routes)
        AuthRoutes(scope: scope).add(to: &routes)
        AccountRoutes(scope: scope).add(to: &routes)
        PasskeyRoutes(scope: scope).add(to: &routes)
        PasskeyRelyingParty.announce(publicURL: configuration.publicURL, logger: logger)
        DataCareRoutes(scope: scope).add(to: &routes)
        ImportRoutes(scope: scope).add(to: &routes)
        let dailyUpdates = DailyUpdateService(database: accounts)
        StatsRoutes(scope: scope, dailyUpdates: dailyUpdates).add(to: &routes)
        DailyUpdateRoutes(scope: scope, dailyUpdates: dailyUpdates).add(to: &routes)
        CheckinRoutes(scope: scope).add(to: &routes)
        QuoteRoutes(scope: scope).add(to: &routes)
        HabitRoutes(scope: scope).add(to: &routes)
        EntryRoutes(scope: scope).add(to: &routes)
        StatusRoutes(scope: scope).add(to: &routes)
        ReportRoutes(scope: scope).add(to: &routes)
        ProofRoutes(scope: scope).add(to: &routes)
        ReferenceRoutes(scope: scope).add(to: &routes)
        TokenRoutes(scope: scope).add(to: &routes)
        MetricRoutes(scope: scope).add(to: &routes)
        PushRoutes(scope: scope).add(to: &routes)
        NotificationRoutes(scope: scope).add(to: &routes)
        GateRoutes(scope: scope).add(to: &routes)

        let router = Router(context: ServerContext.self)
        router.add(middleware: ForwardedMiddleware(trusted: configuration.trustedProxies))
        router.add(middleware: SecurityHeadersMiddleware(servesHTTPS: configuration.tls != nil))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(middleware: ErrorMiddleware(routes: routes))
        routes.register(on: router)
        let limits = configuration.connections
        let tls = configuration.tls
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(
                    responder: responder, limits: limits, trusted: configuration.trustedProxies, tls: tls)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "morningproof-server",
                // Beyond the cap, connections wait in the listen backlog until one closes (Hummingbird's own).
                availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)),
            services: httpsRedirect(configuration: configuration, logger: logger),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                tls?.port = port
                await onRunning(configuration.host, port)
            },
            logger: logger)
    }
}
