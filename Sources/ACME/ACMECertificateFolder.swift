import Crypto
import Foundation
import MorningProofCore
import X509

/// The folder (mode 0700) where ACME keeps the account key and each domain's certificate and
/// key, every file 0600, each replaced whole (written aside, then renamed), so a restart finds
/// them and orders nothing new.
public struct ACMECertificateFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public var accountKeyPath: String { "\(path)/account-key.pem" }
    public func certificatePath(domain: String) -> String { "\(path)/\(domain).pem" }
    public func keyPath(domain: String) -> String { "\(path)/\(domain)-key.pem" }

    /// Makes the folder (0700) when missing.
    public func create() throws {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw MorningProofError.ioError("cannot make the ACME folder \(path): \(error.localizedDescription)")
        }
    }

    /// The account key, made and saved on the first start.
    public func accountKey() throws -> ACMEAccountKey {
        if let pem = try? String(contentsOfFile: accountKeyPath, encoding: .utf8) {
            do {
                return try ACMEAccountKey(pem: pem)
            } catch {
                throw MorningProofError(.dataError, "\(accountKeyPath): not a P-256 private key in PEM")
            }
        }
        let key = ACMEAccountKey()
        try write(key.pem, to: accountKeyPath)
        return key
    }

    /// The certificate stored for `domain` (the chain's first), if any file is there and reads as one.
    public func storedCertificate(domain: String) -> StoredCertificate? {
        guard let chain = try? String(contentsOfFile: certificatePath(domain: domain), encoding: .utf8),
            let end = chain.range(of: "-----END CERTIFICATE-----"),
            let leaf = try? Certificate(pemEncoded: String(chain[..<end.upperBound]))
        else { return nil }
        return StoredCertificate(leaf)
    }

    /// Saves a certificate chain and its key for `domain`: the key first, so that a stop between the
    /// two leaves a pair that does not match (and is ordered again), never a new key unused.
    public func save(_ issued: IssuedCertificate, domain: String) throws {
        try write(issued.keyPEM, to: keyPath(domain: domain))
        try write(issued.chainPEM, to: certificatePath(domain: domain))
    }

    /// Writes `text` to a new file (0600 from its creation) beside `target`, then renames it over.
    func write(_ text: String, to target: String) throws {
        let aside = "\(target).\(UUID().uuidString).new"
        let descriptor = open(aside, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw MorningProofError.ioError("cannot write \(target): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(aside)
            throw MorningProofError.ioError("cannot write \(target): \(error.localizedDescription)")
        }
        guard rename(aside, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(aside)
            throw MorningProofError.ioError("cannot write \(target): \(reason)")
        }
    }
}

/// What the renewal needs to know of a stored certificate.
public struct StoredCertificate: Sendable, Equatable {
    public var notValidBefore: Date
    public var notValidAfter: Date
    /// The placeholder served until the first certificate comes: issued by itself, not by a CA.
    public var isSelfSigned: Bool
    /// The DNS names it is for.
    public var names: [String]

    init(_ leaf: Certificate) {
        notValidBefore = leaf.notValidBefore
        notValidAfter = leaf.notValidAfter
        isSelfSigned = leaf.issuer == leaf.subject
        let alternatives = (try? leaf.extensions.subjectAlternativeNames) ?? nil
        names = (alternatives.map(Array.init) ?? []).compactMap {
            if case .dnsName(let name) = $0 { return name }
            return nil
        }
    }

    public init(notValidBefore: Date, notValidAfter: Date, isSelfSigned: Bool = false, names: [String]) {
        self.notValidBefore = notValidBefore
        self.notValidAfter = notValidAfter
        self.isSelfSigned = isSelfSigned
        self.names = names
    }

    /// When to renew: two thirds into its lifetime, as Let's Encrypt advises (60 days of 90).
    public var renewalDate: Date {
        notValidBefore.addingTimeInterval(notValidAfter.timeIntervalSince(notValidBefore) * 2 / 3)
    }

    /// Whether it can be served for `domain` until it is renewed: a CA's, for that name.
    public func serves(_ domain: String) -> Bool {
        !isSelfSigned && names.contains { $0.caseInsensitiveCompare(domain) == .orderedSame }
    }
}

extension ACMECertificateFolder {
    /// A self-signed certificate for `domain`, valid one day, to serve https until the CA's comes
    /// (the https listener needs one from its start); it is never kept as a real one.
    public func savePlaceholder(domain: String, now: Date = Date()) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName(domain) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey), notValidBefore: now.addingTimeInterval(-60),
            notValidAfter: now.addingTimeInterval(86_400), issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { SubjectAlternativeNames([.dnsName(domain)]) },
            issuerPrivateKey: Certificate.PrivateKey(key))
        try save(
            IssuedCertificate(chainPEM: try certificate.serializeAsPEM().pemString, keyPEM: key.pemRepresentation),
            domain: domain)
    }
}
