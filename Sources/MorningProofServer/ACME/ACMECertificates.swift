import ACME
import Foundation
import Logging
import MorningProofCore
import NIOSSL
import ServiceLifecycle

/// What `serve --acme-domain` asks for: the domain, the CA, where the files live.
public struct ACMESettings: Sendable {
    public var domain: String
    public var email: String?
    public var directoryURL: String
    /// A PEM file trusted besides the system's roots, for a private CA (Pebble).
    public var caCertificatePath: String?
    public var folder: ACMECertificateFolder
    /// Order a new certificate at start even when the stored one is good (`--acme-renew-now`).
    public var renewNow = false

    public init(
        domain: String, email: String?, directoryURL: String, caCertificatePath: String?, folderPath: String
    ) {
        self.domain = domain
        self.email = email
        self.directoryURL = directoryURL
        self.caCertificatePath = caCertificatePath
        self.folder = ACMECertificateFolder(path: folderPath)
    }

    /// Let's Encrypt's production directory: the default CA.
    public static let letsEncrypt = "https://acme-v02.api.letsencrypt.org/directory"
}

/// The certificate `serve --acme-domain` serves: the stored one when it is good for the domain,
/// else a self-signed placeholder until the CA's comes; renewed at two thirds of its lifetime
/// by `service(logger:)`, and swapped in for new connections as SIGHUP does.
public final class ACMECertificates: Sendable {
    public let settings: ACMESettings
    public let tls: TLSServing
    /// What the plain http listener answers to the CA while an order is under way.
    public let challenges = HTTP01Challenges()
    /// How the CA's https is trusted (checked at start; the client is made when the service runs).
    let trust: TLSConfiguration

    /// Prepares the folder and the account key and loads what will be served; an unusable folder,
    /// key file or `--acme-ca-certificate` stops the start here.
    public init(settings: ACMESettings, now: Date = Date()) throws {
        self.settings = settings
        let folder = settings.folder, domain = settings.domain
        trust = try ACMEHTTPClient.trust(caCertificatePath: settings.caCertificatePath)
        try folder.create()
        _ = try folder.accountKey()
        let files = TLSCertificateFiles(
            certificatePath: folder.certificatePath(domain: domain), keyPath: folder.keyPath(domain: domain))
        if folder.storedCertificate(domain: domain)?.serves(domain) == true, let stored = try? TLSServing(files: files)
        {
            tls = stored
        } else {
            try folder.savePlaceholder(domain: domain, now: now)
            tls = try TLSServing(files: files, now: now)
        }
    }

    /// The CA's certificate stored for the domain and not expired, if there is one.
    func current(now: Date = Date()) -> StoredCertificate? {
        guard let stored = settings.folder.storedCertificate(domain: settings.domain), stored.serves(settings.domain),
            stored.notValidAfter > now
        else { return nil }
        return stored
    }

    /// The service that orders the first certificate and each renewal while the server runs.
    public func service(logger: Logger) -> any Service { ACMERenewal(certificates: self, logger: logger) }
}

/// Orders a certificate when none is stored (a failure then ends the server: it has nothing to
/// serve), and again at two thirds of the lifetime of the one served (a failure then is logged and
/// tried again later, the old certificate kept).
struct ACMERenewal: Service {
    let certificates: ACMECertificates
    let logger: Logger

    func run() async throws {
        let transport = ACMEHTTPClient(trust: certificates.trust)
        do {
            try await cancelWhenGracefulShutdown { try await renewWhenDue(transport) }
        } catch is CancellationError {
            // Shut down while waiting or ordering.
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }

    private func renewWhenDue(_ transport: ACMEHTTPClient) async throws {
        let settings = certificates.settings
        let client = ACMEClient(
            directoryURL: settings.directoryURL, key: try settings.folder.accountKey(),
            transport: transport)
        await certificates.challenges.untilListening()
        var forced = settings.renewNow
        var failures = 0
        if let stored = certificates.current() {
            logger.notice("ACME: serving the stored certificate for \(settings.domain): \(certificates.tls.summary)")
            logger.info("ACME: renewal due on \(stored.renewalDate.formatted(.iso8601))")
        }
        while true {
            let stored = certificates.current()
            let due = forced ? Date() : stored?.renewalDate ?? Date()
            let wait = due.timeIntervalSinceNow
            if wait > 0 {
                // Looked at again hourly: a clock that jumps (a suspended machine) is seen.
                try await Task.sleep(for: .seconds(min(wait, 3600)))
                continue
            }
            do {
                logger.notice("ACME: ordering a certificate for \(settings.domain) from \(settings.directoryURL)")
                let issued = try await client.issue(
                    domain: settings.domain, email: settings.email, challenges: certificates.challenges)
                try settings.folder.save(issued, domain: settings.domain)
                guard certificates.current() != nil, certificates.tls.renew(logger: logger) else {
                    throw ACMEError.unexpectedAnswer(
                        url: settings.directoryURL,
                        reason: "the certificate issued is not one for \(settings.domain) to serve")
                }
                forced = false
                failures = 0
                logger.notice("ACME: certificate for \(settings.domain) issued: \(certificates.tls.summary)")
            } catch {
                if Task.isCancelled { throw CancellationError() }
                guard stored != nil else { throw error }
                failures += 1
                let retry = min(60 * pow(2, Double(min(failures, 10))), 21_600)
                let message = MorningProofError(error)?.message ?? "\(error)"
                logger.error(
                    "ACME: renewal failed (the served certificate is kept; again in \(Int(retry)) s): \(message)")
                try await Task.sleep(for: .seconds(retry))
            }
        }
    }
}
