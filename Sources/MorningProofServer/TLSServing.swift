import Foundation
import Logging
import MorningProofCore
import NIOSSL

/// The certificate the server serves over https, renewed without a restart: `renew(logger:)`
/// (on SIGHUP) reads the files again; new connections get the new certificate, open ones keep the
/// one they started with, and a bad new file is logged while the old certificate stays.
public final class TLSServing: Sendable {
    public let files: TLSCertificateFiles
    private let loaded: Locked<TLSCertificateFiles.Loaded>
    private let listeningPort = Locked<Int?>(nil)

    /// Loads `files` (see `TLSCertificateFiles.load`): an error here stops the start.
    public init(files: TLSCertificateFiles, now: Date = Date()) throws {
        self.files = files
        loaded = Locked(try files.load(now: now))
    }

    /// The context a new connection's TLS handler starts from.
    var context: NIOSSLContext { loaded.withLock { $0.context } }

    /// What the log says about the certificate served now.
    public var summary: String {
        loaded.withLock { "serial \($0.serial), valid until \($0.notValidAfter.formatted(.iso8601))" }
    }

    /// Reads the files again; true when the new certificate is served from now on. A file that is
    /// missing, unreadable, mismatched or expired is logged and the old certificate kept.
    @discardableResult
    public func renew(logger: Logger, now: Date = Date()) -> Bool {
        do {
            let new = try files.load(now: now)
            loaded.withLock { $0 = new }
            logger.info("serving the renewed certificate \(files.certificatePath): \(summary)")
            return true
        } catch {
            let message = MorningProofError(error)?.message ?? "\(error)"
            logger.error("kept the certificate served until now (\(summary)): \(message)")
            return false
        }
    }

    /// The port https is served on, once listening (the configured one may be 0: any free port).
    var port: Int? {
        get { listeningPort.withLock { $0 } }
        set { listeningPort.withLock { $0 = newValue } }
    }
}
