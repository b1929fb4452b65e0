import HTTPTypes
import Hummingbird

/// The security headers that depend on how a request reached the server. The Content-Security-Policy
/// of the web app's files is `WebRoutes`'s own, on those files.
public enum SecurityHeaders {
    /// `Strict-Transport-Security`'s value: a year, as browsers' preload lists ask.
    static let strictTransportSecurity = "max-age=31536000"

    /// Adds `Strict-Transport-Security` to `fields` when the request came over https: served by this
    /// server's own TLS, or (behind a trusted proxy) marked https by it. Over plain http the header
    /// means nothing and is left out (RFC 6797 §7.2).
    public static func add(to fields: inout HTTPFields, cameOverHTTPS: Bool) {
        guard cameOverHTTPS else { return }
        fields[.strictTransportSecurity] = strictTransportSecurity
    }
}

/// Puts `SecurityHeaders` on every answer, an error's too: the outermost middleware.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    /// The server speaks TLS itself: every request came over https. Else a request came over https
    /// when a trusted proxy says so (`ServerContext.origin`, which `ForwardedMiddleware` sets before).
    let servesHTTPS: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        SecurityHeaders.add(to: &response.headers, cameOverHTTPS: servesHTTPS || context.origin.scheme == "https")
        return response
    }
}
