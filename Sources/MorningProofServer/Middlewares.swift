import Foundation
import Hummingbird
import Logging

/// Turns every error into its JSON answer: a path the router does not know is 404, or 405 with
/// `Allow` when the path is known under other methods.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
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
}

/// One log line per request: method, path (never the query), status and duration. Headers and
/// bodies, where tokens and passwords travel, are never logged.
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
            "\(request.method.rawValue) \(request.uri.path) \(response.status.code) \(String(format: "%.1f", milliseconds)) ms"
        )
        return response
    }
}
