import Foundation
import MorningProofCore
import NIOSSL

/// The PEM files `serve --tls-cert FILE --tls-key FILE` names: the certificate chain as given (the
/// server's own certificate first) and its private key (RSA or ECDSA).
public struct TLSCertificateFiles: Sendable, Equatable {
    public var certificatePath: String
    public var keyPath: String

    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// What a loaded pair serves: the TLS context every new connection starts from, and what the
    /// log says about the certificate.
    struct Loaded: Sendable {
        let context: NIOSSLContext
        /// The server certificate's serial number in hex, as `openssl x509 -serial` prints it.
        let serial: String
        let notValidAfter: Date
    }

    /// Reads both files and checks them: a missing file is `noInput` (exit 66); an unreadable one,
    /// one that is not PEM, an expired certificate or a key of another certificate is `usage` (64).
    func load(now: Date = Date()) throws -> Loaded {
        let certificateBytes = try Self.read(certificatePath, option: "--tls-cert")
        let keyBytes = try Self.read(keyPath, option: "--tls-key")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
        } catch {
            chain = []
        }
        guard let leaf = chain.first else {
            throw MorningProofError(.usage, "--tls-cert \(certificatePath): no PEM certificate in it")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw MorningProofError(
                .usage, "--tls-key \(keyPath): no PEM private key in it (RSA or ECDSA, not encrypted)")
        }
        let notValidAfter = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
        guard notValidAfter > now else {
            throw MorningProofError(
                .usage,
                "--tls-cert \(certificatePath): the certificate expired on \(notValidAfter.formatted(.iso8601))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            // Each file parsed on its own: what is left is a key that is not the certificate's.
            throw MorningProofError(
                .usage, "--tls-key \(keyPath) is not the private key of the certificate in \(certificatePath)")
        }
        return Loaded(context: context, serial: Self.serial(of: leaf), notValidAfter: notValidAfter)
    }

    private static func read(_ path: String, option: String) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw MorningProofError(.noInput, "\(option) \(path): no such file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MorningProofError(.usage, "\(option) \(path): cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        do {
            // A certificate chain or a key is a few kilobytes; a megabyte is not one.
            let data = try handle.read(upToCount: 1 << 20) ?? Data()
            return Array(data)
        } catch {
            throw MorningProofError(.usage, "\(option) \(path): cannot be read (\(error.localizedDescription))")
        }
    }

    /// The serial in upper-case hex, without leading zero bytes.
    private static func serial(of certificate: NIOSSLCertificate) -> String {
        let bytes = certificate.serialNumber.drop { $0 == 0 }
        return bytes.isEmpty ? "00" : bytes.map { String(format: "%02X", $0) }.joined()
    }
}
