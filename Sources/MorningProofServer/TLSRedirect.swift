import ACME
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

extension MorningProofServer {
    /// The plain http listener of `serve --redirect-http PORT`, as a service of the application:
    /// none when no port is asked for, or when the server does not speak https itself.
    static func httpsRedirect(configuration: ServerConfiguration, logger: Logger) -> [any Service] {
        guard let port = configuration.redirectHTTPPort, let tls = configuration.tls else { return [] }
        let limits = configuration.connections
        let responder = HTTPSRedirectResponder(
            configuredHost: configuration.host, httpsPort: configuration.port, tls: tls,
            challenges: configuration.acme?.challenges)
        return [
            Application(
                responder: responder,
                server: HTTPServerBuilder { responder in GuardedHTTP1Channel(responder: responder, limits: limits) },
                configuration: ApplicationConfiguration(
                    address: .hostname(configuration.host, port: port), serverName: "morningproof-server",
                    availableConnectionsDelegate: MaximumAvailableConnections(limits.maxConnections, logger: logger)),
                onServerRunning: { channel in
                    let listening = channel.localAddress?.port ?? port
                    logger.notice("redirecting http://\(configuration.host):\(listening) to https")
                    configuration.acme?.challenges.markListening()
                },
                logger: logger)
        ]
    }
}

/// Answers every request with 308 to the same host and path over https, on the port https is
/// served on; except ACME's HTTP-01 challenges, which must be answered over plain http (404 while
/// the server gets no certificate by ACME).
struct HTTPSRedirectResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    /// The host when the request names none (an HTTP/1.0 client).
    let configuredHost: String
    /// The https port asked for, until the listening one is known.
    let httpsPort: Int
    let tls: TLSServing
    /// The HTTP-01 challenges of `serve --acme-domain`; nil without ACME.
    var challenges: HTTP01Challenges? = nil

    static let acmeChallengePrefix = HTTP01Challenges.pathPrefix

    func respond(to request: Request, context: Context) async throws -> Response {
        if request.uri.path.hasPrefix(Self.acmeChallengePrefix) {
            guard let answer = challenges?.keyAuthorization(forPath: request.uri.path) else {
                return Response(status: .notFound, headers: [.contentLength: "0"])
            }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: answer)))
        }
        let host = Self.hostName(of: request.head.authority) ?? configuredHost
        let port = tls.port ?? httpsPort
        var location = "https://\(host)\(port == 443 ? "" : ":\(port)")\(request.uri.path)"
        if let query = request.uri.query { location += "?\(query)" }
        return Response(
            status: .permanentRedirect, headers: [.location: location, .contentLength: "0", .cacheControl: "no-store"])
    }

    /// The host of a `Host` header without its port: a name or IPv4 address of letters, digits,
    /// dots and dashes, or a bracketed IPv6 address; nil for anything else (no other text may
    /// reach the `Location` header).
    static func hostName(of authority: String?) -> String? {
        guard let authority, !authority.isEmpty else { return nil }
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return nil }
            let address = authority[authority.index(after: authority.startIndex)..<end]
            guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
            return "[\(address)]"
        }
        let name = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        else { return nil }
        return String(name)
    }
}
