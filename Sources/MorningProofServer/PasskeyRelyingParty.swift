import Foundation
import Logging
import WebAuthn

/// Which relying party (WebAuthn's RP id and origin) a passkey ceremony is for.
///
/// With `--public-url`: that URL's host and origin, whatever the request. A request that shows another
/// address (the browser's `Origin` header when it sends one, as every fetch that posts does; else its
/// `Host`, or the host a trusted proxy forwarded) is refused with 400 `wrong_host`, saying where
/// passkeys work, instead of the browser's bare SecurityError or a signature refused later.
///
/// Without it: each request's own host is the RP id, so a passkey made at one address does not work
/// at another (the server says so once at start, `announce`). The origin's scheme is https when the
/// server serves TLS, when a trusted proxy says so (`X-Forwarded-Proto`), or when the browser's
/// `Origin` is https for that same host (a proxy that ends TLS and is not trusted); else http.
struct PasskeyRelyingParty {
    /// The configuration's `--public-url`, as `ProxyOptions.checkedPublicURL` gives it.
    let publicURL: String?
    /// Whether the server serves TLS itself.
    let servesTLS: Bool

    /// The relying party of a request with the `Host` `authority`, the `Origin` header `pageOrigin`,
    /// and the origin `forwarded` (`ForwardedMiddleware`'s).
    func relyingParty(authority: String?, pageOrigin: String?, forwarded: RequestOrigin) throws -> RelyingParty {
        let host = forwarded.viaTrustedProxy ? forwarded.host ?? authority : authority
        let page = pageOrigin.flatMap { $0 == "null" ? nil : $0 }
        guard let publicURL else { return try ownRelyingParty(host: host, page: page, forwarded: forwarded) }
        guard let expected = Self.origin(publicURL), let id = URLComponents(string: expected)?.host else {
            throw APIError.badRequest("passkeys: --public-url \(publicURL) names no host")
        }
        // The page's origin when the browser says it; else the host asked for, under the public scheme.
        let scheme = expected.hasPrefix("https:") ? "https" : "http"
        let shown = page ?? host.map { "\(scheme)://\($0)" }
        guard let shown, Self.origin(shown) == expected else {
            throw APIError.badRequest(
                "passkeys on this server are for \(expected) (its --public-url), and this request came from "
                    + "\(shown.map(Self.quoted) ?? "no address"): open MorningProof at \(expected) to use them",
                code: "wrong_host")
        }
        return RelyingParty(id: Self.unbracketed(id), origin: expected)
    }

    /// The request's own relying party (no `--public-url`).
    private func ownRelyingParty(host: String?, page: String?, forwarded: RequestOrigin) throws -> RelyingParty {
        guard let host, let name = HTTPSRedirectResponder.hostName(of: host), !name.hasPrefix("["),
            host.dropFirst(name.count).allSatisfy({ $0 == ":" || $0.isASCII && $0.isNumber })
        else {
            throw APIError.badRequest("passkeys need a Host header naming this server (or serve --public-url)")
        }
        var scheme = servesTLS ? "https" : "http"
        if forwarded.viaTrustedProxy, let said = forwarded.scheme {
            scheme = said
        } else if !servesTLS, let page, Self.origin(page) != nil, Self.origin(page) == Self.origin("https://\(host)") {
            scheme = "https"
        }
        return RelyingParty(
            id: name.lowercased(), origin: Self.origin("\(scheme)://\(host)") ?? "\(scheme)://\(host.lowercased())")
    }

    /// `scheme://host[:port]` in lower case, without the scheme's default port: how a browser writes
    /// an origin. Nil for anything else (a path, a user, another scheme).
    static func origin(_ text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host?.lowercased(), !host.isEmpty, url.user == nil,
            url.password == nil, url.query == nil, url.fragment == nil, ["", "/"].contains(url.path)
        else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, port != (scheme == "https" ? 443 : 80) else { return "\(scheme)://\(bracketed)" }
        return "\(scheme)://\(bracketed):\(port)"
    }

    private static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host.lowercased()
    }

    /// `text` for a message: at most 100 characters of what the client sent, in quotes.
    private static func quoted(_ text: String) -> String {
        "\"\(String(text.filter { ($0.asciiValue ?? 0) >= 0x20 && $0.asciiValue != 0x7F }.prefix(100)))\""
    }

    /// Says once, at start, what the relying party follows: without `--public-url`, that it changes
    /// with each request's Host, and how to fix it.
    static func announce(publicURL: String?, logger: Logger) {
        guard let publicURL, let expected = origin(publicURL) else {
            let notice =
                "passkeys follow each request's Host header (no --public-url): a passkey added at one address "
                + "does not work at another, and behind a proxy that ends TLS without --trusted-proxy the page "
                + "may be taken for http; serve --public-url https://HOST (the address people use) to fix both"
            logger.notice("\(notice)")
            return
        }
        logger.info("passkeys are for \(expected) (--public-url): a passkey ceremony from another address is refused")
    }
}
