import Foundation
import Hummingbird
import Logging
import NIOHTTP1

/// Turns every error into its JSON answer: a path the router does not know is 404, or 405 with
/// `Allow` when the path is known under other methods. A request whose framing is not HTTP (a
/// broken chunk, a chunk size past 64 bits) is 400, and a transfer coding other than `chunked`
/// is 501 (RFC 9112 §6.1), before any route reads the body; both end the connection, since where
/// the next request would begin is unknown.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let coding = request.headers[.transferEncoding], !Self.isChunkedOnly(coding) {
            return Self.endingConnection(
                APIError(
                    status: .notImplemented, code: "not_implemented",
                    message: "Transfer-Encoding \(coding) is not supported; send chunked or Content-Length"))
        }
        do {
            return try await next(request, context)
        } catch is HTTPParserError {
            return Self.endingConnection(.badRequest("the request is not valid HTTP/1.1 framing (its body or chunks)"))
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            // The router's own "no route": the path is unknown, or known with other methods.
            let allowed = routes.allowedMethods(for: request.uri.path)
            guard !allowed.isEmpty else {
                return APIError(status: .notFound, code: "not_found", message: "no such path: \(request.uri.path)")
                    .response
            }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            return APIError(
                status: .methodNotAllowed, code: "method_not_allowed",
                message: "\(request.method.rawValue) is not allowed on \(request.uri.path); use \(list)",
                headers: [.allow: list]
            ).response
        } catch {
            return APIError(error, logger: context.logger).response
        }
    }

    /// `chunked` alone, the one transfer coding the server decodes (names are case-insensitive).
    private static func isChunkedOnly(_ coding: String) -> Bool {
        coding.trimmingCharacters(in: .whitespaces).lowercased() == "chunked"
    }

    private static func endingConnection(_ error: APIError) -> Response {
        var response = error.response
        response.headers[.connection] = "close"
        return response
    }
}

/// Decides where the request came from (`TrustedProxies.origin`: the peer, or the client a trusted
/// proxy names, and the scheme it says) before anything else runs.
struct ForwardedMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let trusted: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if !trusted.isEmpty {
            context.origin = trusted.origin(
                peer: context.peer, headers: request.headers, authority: request.head.authority)
        }
        return try await next(request, context)
    }
}

/// One log line per request: the client's address, method, path (never the query), status and
/// duration. Headers and bodies, where tokens and passwords travel, are never logged.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "\(context.remoteAddress) \(request.method.rawValue) \(request.uri.path) \(response.status.code) \(String(format: "%.1f", milliseconds)) ms"
        )
        return response
    }
}
