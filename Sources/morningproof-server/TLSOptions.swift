import ArgumentParser
import Foundation
import Logging
import MorningProofServer
import ServiceLifecycle

/// `serve`'s HTTPS: the certificate and key it serves, renewed on SIGHUP, and the plain http
/// listener that redirects to it.
struct TLSOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "Serve https on --port with this PEM certificate chain (the server's certificate first, then "
                + "the intermediates); read again on SIGHUP.",
            valueName: "file"))
    var certificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The PEM private key (RSA or ECDSA) of --tls-cert; read again on SIGHUP.", valueName: "file")
    )
    var key: String?

    @Option(
        name: .customLong("redirect-http"),
        help: ArgumentHelp(
            "Also listen for plain http on this port (on --host) and answer every request with 308 to the "
                + "same address over https.",
            valueName: "port"))
    var redirectHTTPPort: Int?

    func validate() throws {
        guard (certificate == nil) == (key == nil) else {
            throw ValidationError("give --tls-cert and --tls-key together")
        }
        if let redirectHTTPPort {
            guard certificate != nil else { throw ValidationError("--redirect-http needs --tls-cert and --tls-key") }
            guard (0...65535).contains(redirectHTTPPort) else {
                throw ValidationError("--redirect-http must be 0 to 65535")
            }
        }
    }

    /// Loads the certificate into `configuration` (a missing, unreadable, mismatched or expired file
    /// stops the start here) and lets SIGHUP through to `renewal`, not to the default that ends the process.
    func apply(to configuration: inout ServerConfiguration) throws {
        guard let certificate, let key else { return }
        configuration.tls = try TLSServing(files: TLSCertificateFiles(certificatePath: certificate, keyPath: key))
        configuration.redirectHTTPPort = redirectHTTPPort
        signal(SIGHUP, SIG_IGN)
    }

    /// The service that renews the certificate on each SIGHUP while the server runs; none over plain http.
    static func renewal(_ configuration: ServerConfiguration, logger: Logger) -> [any Service] {
        guard let tls = configuration.tls else { return [] }
        logger.info("serving https with \(tls.files.certificatePath): \(tls.summary)")
        return [CertificateRenewalOnSIGHUP(tls: tls, logger: logger)]
    }
}

/// Reads the certificate files again on every SIGHUP until the server shuts down.
struct CertificateRenewalOnSIGHUP: Service {
    let tls: TLSServing
    let logger: Logger

    func run() async throws {
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "certificate renewal"))
        source.setEventHandler { [tls, logger] in
            logger.info("SIGHUP: reading \(tls.files.certificatePath) and \(tls.files.keyPath) again")
            tls.renew(logger: logger)
        }
        source.resume()
        defer { source.cancel() }
        try? await gracefulShutdown()
    }
}
