import ArgumentParser
import Foundation
import Logging
import MorningProofCore
import MorningProofSQLite
import MorningProofServer
import ServiceLifecycle

/// `serve`'s certificates from an ACME CA (Let's Encrypt by default): ordered at the first start,
/// kept in the data folder, renewed at two thirds of their lifetime without a restart.
struct ACMEOptions: ParsableArguments {
    @Option(
        name: .customLong("acme-domain"),
        help: ArgumentHelp(
            "Serve https on --port with a certificate for this domain from an ACME CA, validated over plain "
                + "http on --acme-http-port (which redirects everything else to https); renewed by itself.",
            valueName: "name"))
    var domain: String?

    @Option(
        name: .customLong("acme-email"),
        help: ArgumentHelp("The address the CA writes to about the certificates (optional).", valueName: "address"))
    var email: String?

    @Option(
        name: .customLong("acme-directory"),
        help: ArgumentHelp("The ACME CA's directory URL (default: Let's Encrypt's).", valueName: "url"))
    var directory = ACMESettings.letsEncrypt

    @Option(
        name: .customLong("acme-ca-certificate"),
        help: ArgumentHelp(
            "A PEM certificate to trust for the directory's https, besides the system's (a private CA such as "
                + "Pebble).",
            valueName: "file"))
    var caCertificate: String?

    @Option(
        name: .customLong("acme-http-port"),
        help: ArgumentHelp(
            "The plain http port the CA validates on (HTTP-01: 80 on the internet); it redirects every other "
                + "request to https.",
            valueName: "port"))
    var httpPort = 80

    @Option(
        name: .customLong("acme-folder"),
        help: ArgumentHelp(
            "Where the account key and certificates are kept (default: acme/ beside the SQLite database).",
            valueName: "path"))
    var folder: String?

    @Flag(
        name: .customLong("acme-renew-now"),
        help: "Order a new certificate at start even when the stored one is not due for renewal.")
    var renewNow = false

    func validate() throws {
        guard let domain else {
            let given = [
                email.map { _ in "--acme-email" }, caCertificate.map { _ in "--acme-ca-certificate" },
                folder.map { _ in "--acme-folder" }, renewNow ? "--acme-renew-now" : nil,
            ].compactMap { $0 }
            if let first = given.first { throw ValidationError("\(first) needs --acme-domain") }
            return
        }
        guard Self.isDomainName(domain) else {
            throw ValidationError(
                "--acme-domain must be a DNS name such as example.org (letters, digits, dots, dashes)")
        }
        guard let url = URL(string: directory), url.scheme == "https", url.host != nil else {
            throw ValidationError("--acme-directory must be an https:// URL")
        }
        guard (0...65535).contains(httpPort) else { throw ValidationError("--acme-http-port must be 0 to 65535") }
        if let email, email.contains(where: { $0 == "," || $0.isWhitespace }) || !email.contains("@") {
            throw ValidationError("--acme-email must be one email address")
        }
    }

    /// A name the CA can issue for and the folder can name files after: dot-separated labels of
    /// letters, digits and inner dashes, with a dot (no address, no wildcard).
    static func isDomainName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.count <= 253 && labels.count >= 2 && Double(name) == nil
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            } && labels.last?.allSatisfy(\.isNumber) == false
    }

    /// Loads the stored certificate (or a placeholder until the CA's comes) into `configuration`,
    /// with the plain http listener the CA validates on. `--tls-cert` as well is a usage error (64).
    func apply(to configuration: inout ServerConfiguration, database: DatabaseOption) throws {
        guard let domain else { return }
        guard configuration.tls == nil else {
            throw MorningProofError.usage("give --acme-domain or --tls-cert and --tls-key, not both")
        }
        let folder =
            folder
            ?? URL(fileURLWithPath: DatabaseLocation.resolve(explicit: database.path))
            .deletingLastPathComponent().appendingPathComponent("acme").path
        var settings = ACMESettings(
            domain: domain, email: email, directoryURL: directory, caCertificatePath: caCertificate,
            folderPath: folder)
        settings.renewNow = renewNow
        let certificates = try ACMECertificates(settings: settings)
        configuration.acme = certificates
        configuration.tls = certificates.tls
        configuration.redirectHTTPPort = httpPort
        signal(SIGHUP, SIG_IGN)
    }

    /// The service that orders and renews the certificate; none without ACME.
    static func renewal(_ configuration: ServerConfiguration, logger: Logger) -> [any Service] {
        guard let acme = configuration.acme else { return [] }
        return [acme.service(logger: logger)]
    }
}
