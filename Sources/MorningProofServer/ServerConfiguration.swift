import Foundation
import MorningProofInterchange
import MorningProofService
import MorningProofStoreContract

/// How a server runs: where it listens and what it allows.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Honour `X-MorningProof-Now` as the moment a request acts at (tests and demos only).
    public var allowClockHeader: Bool
    /// bcrypt's cost for new passwords (each step doubles the time): 12 in use, 4 in tests.
    public var bcryptCost: Int
    /// The largest request body read, in bytes; more is answered with 413.
    public var bodyLimit: Int
    /// CPU-heavy requests (a photo proof, a metrics file) that may wait for a core; more are
    /// answered with 503 and `Retry-After`. One runs per core besides. (Sign-ins: `passwordQueueLimit`.)
    public var cpuQueueLimit: Int = 32
    /// Photo proofs whose bodies (up to 25 MB each) are read and judged at once, by all accounts;
    /// more are answered with 503 and `Retry-After` before their body is read. Bounds their memory.
    public var photoUploadLimit: Int = 8
    /// The largest metrics body (`POST /api/metrics`: Health Auto Export JSON, JSON Lines, CSV), in bytes.
    public var metricsLimit = 50 * 1024 * 1024
    /// The largest Apple Health export posted (`export.zip` or `export.xml`, alone or in a form), in bytes.
    public var metricsExportLimit = 512 * 1024 * 1024
    /// Metric uploads received and read at once, by all accounts; more are answered with 503 and
    /// `Retry-After` before their body is read. Bounds the disk their files take and the cores they read on.
    public var metricsUploadLimit = 2
    /// Where a metrics body is written while it is read: a private folder of its own per upload
    /// (mode 0700, the file 0600), removed when the request ends, whatever its outcome.
    public var uploadFolder = FileManager.default.temporaryDirectory.path
    /// How many sign-ins and sign-ups are allowed per email and address (`SignInLimits`).
    public var signInLimits = SignInLimits()
    /// Timeouts of every connection state and caps on open connections.
    public var connections: ConnectionLimits
    /// What sends notifications to an account's channels (the test message; the notification
    /// pass). By default nothing is sent: every channel fails with "delivery not configured".
    public var channelDelivery: any ChannelDelivery = UnconfiguredDelivery()
    /// Accept plain http notification targets, and let delivery reach loopback and private
    /// addresses (`serve --allow-local-notify-targets`): tests and demos only.
    public var allowLocalNotifyTargets = false
    /// The server's Web Push identity (`PushIdentity.load` at start); nil: `GET /api/push/key` is 503.
    public var vapidIdentity: VAPIDIdentity? = nil

    // Password hashing (issue 38, points 5 and 7): sign-ins and sign-ups hash on threads of their own.
    /// Threads that hash passwords for sign-ins and sign-ups, apart from the CPU pool of uploads and
    /// photos: half the cores, at least one, the most of the CPU that a flood of sign-ins can hold.
    public var passwordHashingThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
    /// Sign-ins and sign-ups that may wait for a hashing thread (two per core, at least four); more are answered
    /// with 503 and `Retry-After` at once, without hashing.
    public var passwordQueueLimit = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

    // Behind a reverse proxy (`serve --trusted-proxy`, `--public-url`).
    /// The proxies whose forwarded client address, scheme and host are believed; none by default.
    public var trustedProxies = TrustedProxies()
    /// The server's own URL as people reach it (`https://HOST[:PORT]`), for the links it makes.
    public var publicURL: String? = nil

    // HTTPS served by the server itself (issue 37).
    /// The certificate served over https on `port` (`serve --tls-cert --tls-key`); nil: plain http.
    public var tls: TLSServing? = nil
    /// A plain http listener on this port that redirects every request to https (`serve --redirect-http`).
    public var redirectHTTPPort: Int? = nil

    // Certificates from an ACME CA (issue 37, `serve --acme-domain`).
    /// The certificate ordered and renewed by ACME (its `tls` is `tls` above); nil without ACME.
    public var acme: ACMECertificates? = nil

    // Accounts a person owns (issue 41).
    /// Mails password-reset links (`serve --smtp-url --mail-from`, with `--public-url` for the
    /// link); nil: "Forgot password?" says to ask the operator (`account reset-password`).
    public var resetMail: (any ResetMailSender)? = nil

    // Imports over HTTP (issue 41, `POST /api/import`).
    /// The largest import body (a Loop backup or CSV zip, harsh's two files, an export), in bytes.
    public var importLimit = 64 * 1024 * 1024
    /// Reads Loop's `.db` backups: the SQLite engine's reader, which the server command gives; nil:
    /// a backup is refused with 415 (Loop's CSV zip, harsh and JSON are read without it).
    public var loopBackupReader: (any LoopBackupReader)? = nil
    /// Imports received and read at once, server-wide, one per account: places of their own, so that
    /// imports and metric uploads never refuse each other.
    public var importUploadLimit = 2

    public init(
        host: String = "127.0.0.1", port: Int = 8080, allowClockHeader: Bool = false, bcryptCost: Int = 12,
        bodyLimit: Int = 64 * 1024, connections: ConnectionLimits = ConnectionLimits()
    ) {
        self.host = host
        self.port = port
        self.allowClockHeader = allowClockHeader
        self.bcryptCost = bcryptCost
        self.bodyLimit = bodyLimit
        self.connections = connections
    }
}
