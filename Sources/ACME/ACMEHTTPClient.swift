import AsyncHTTPClient
import Foundation
import MorningProofCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The CA reached over https with AsyncHTTPClient: no redirects, bounded answers, a timeout per
/// request; trusting the system's roots and, for a private CA such as Pebble, its own certificate.
public final class ACMEHTTPClient: ACMETransport {
    private let client: HTTPClient
    /// The longest answer read (a certificate chain is a few kilobytes).
    static let answerLimit = 1 << 20
    static let timeout = TimeAmount.seconds(30)

    /// The TLS configuration for the CA: the system's roots, and `caCertificatePath`'s certificates
    /// (`--acme-ca-certificate`); missing is `noInput` (66), not PEM is `usage` (64). Checked at
    /// start, before anything is written.
    public static func trust(caCertificatePath: String?) throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        guard let caCertificatePath else { return tls }
        guard FileManager.default.fileExists(atPath: caCertificatePath) else {
            throw MorningProofError(.noInput, "--acme-ca-certificate \(caCertificatePath): no such file")
        }
        let certificates = (try? NIOSSLCertificate.fromPEMFile(caCertificatePath)) ?? []
        guard !certificates.isEmpty else {
            throw MorningProofError(.usage, "--acme-ca-certificate \(caCertificatePath): no PEM certificate in it")
        }
        tls.additionalTrustRoots = [.certificates(certificates)]
        return tls
    }

    /// A client trusting `tls`'s roots; `shutdown()` it before it goes.
    public init(trust tls: TLSConfiguration) {
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: Self.timeout))
        // HTTP/1.1: Pebble's HTTP/2 resets streams under concurrent requests; ACME needs no more.
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    public func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.add(name: "User-Agent", value: "morningproof-server ACME")
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: "application/jose+json")
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await execute(outgoing)
        let body = request.method == .head ? ByteBuffer() : try await response.body.collect(upTo: Self.answerLimit)
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name.lowercased()] = header.value }
        return ACMEHTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    }

    /// Executes `request`; a GET or HEAD (the directory, a nonce) once more when the CA closed a
    /// kept-alive connection before answering. A POST is not sent again here: its nonce may have been
    /// used, so `ACMEClient` signs it again with a fresh one.
    private func execute(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        var attempt = 0
        while true {
            do {
                return try await client.execute(request, deadline: .now() + Self.timeout)
            } catch let error as HTTPClientError
                where error == .remoteConnectionClosed && request.method != .POST && attempt < 2
            {
                attempt += 1
            }
        }
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}
