import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate chain and its new private key, as PEM: what an order yields.
public struct IssuedCertificate: Sendable {
    public var chainPEM: String
    public var keyPEM: String
}

extension ACMEClient {
    /// Gets a certificate for `domain` (RFC 8555 §7.4): registers (or finds) the account, orders,
    /// answers each authorization's HTTP-01 challenge through `challenges`, finalizes with a CSR of
    /// a new P-256 key, and downloads the chain.
    public func issue(domain: String, email: String?, challenges: HTTP01Challenges) async throws -> IssuedCertificate {
        if accountURL == nil { try await register(email: email) }
        let (orderURL, placed) = try await newOrder(domain: domain)
        for url in placed.authorizations {
            try await authorize(url, domain: domain, challenges: challenges)
        }
        var order = try await poll(orderURL, self.order) { $0.status != "pending" }
        try Self.check(order, domain: domain, expected: "ready")
        let privateKey = P256.Signing.PrivateKey()
        order = try await finalize(order, csr: try Self.signingRequest(domain: domain, key: privateKey))
        order = try await poll(orderURL, self.order) { $0.status != "processing" && $0.status != "ready" }
        try Self.check(order, domain: domain, expected: "valid")
        guard let certificateURL = order.certificate else {
            throw ACMEError.unexpectedAnswer(url: orderURL, reason: "a valid order without a certificate URL")
        }
        return IssuedCertificate(
            chainPEM: try await certificateChain(certificateURL), keyPEM: privateKey.pemRepresentation)
    }

    /// Proves control of the domain of authorization `url` by HTTP-01, unless it is valid already.
    private func authorize(_ url: String, domain: String, challenges: HTTP01Challenges) async throws {
        let authorization = try await self.authorization(url)
        if authorization.status == "valid" { return }
        guard authorization.status == "pending",
            let challenge = authorization.challenges.first(where: { $0.type == "http-01" }),
            let token = challenge.token
        else {
            throw ACMEError.validationFailed(
                domain: domain,
                detail: "the authorization is \(authorization.status), with no http-01 challenge to answer")
        }
        challenges.publish(token: token, keyAuthorization: key.keyAuthorization(token: token))
        defer { challenges.withdraw(token: token) }
        try await respond(to: challenge)
        let done = try await poll(url, self.authorization) { $0.status != "pending" }
        guard done.status == "valid" else {
            let detail =
                done.challenges.first { $0.type == "http-01" }?.error?.summary ?? "authorization \(done.status)"
            throw ACMEError.validationFailed(domain: domain, detail: detail)
        }
    }

    private static func check(_ order: ACMEOrder, domain: String, expected: String) throws {
        guard order.status == expected else {
            throw ACMEError.validationFailed(
                domain: domain, detail: order.error?.summary ?? "the order is \(order.status), not \(expected)")
        }
    }

    /// A PKCS #10 request (DER) for `domain` as common name and only subject alternative name.
    public static func signingRequest(domain: String, key: P256.Signing.PrivateKey) throws -> Data {
        let extensions = try Certificate.Extensions { SubjectAlternativeNames([.dnsName(domain)]) }
        let request = try CertificateSigningRequest(
            version: .v1, subject: try DistinguishedName { CommonName(domain) },
            privateKey: Certificate.PrivateKey(key),
            attributes: CertificateSigningRequest.Attributes([.init(ExtensionRequest(extensions: extensions))]),
            signatureAlgorithm: .ecdsaWithSHA256)
        var serializer = DER.Serializer()
        try serializer.serialize(request)
        return Data(serializer.serializedBytes)
    }
}
