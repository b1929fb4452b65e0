import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofServer

/// `serve`'s options for running behind a reverse proxy (nginx, Caddy): whose forwarded headers
/// are believed, and the URL people reach the server at.
struct ProxyOptions: ParsableArguments {
    static let environmentName = "MORNINGPROOF_TRUSTED_PROXIES"

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy (an address or CIDR range, IPv4 or IPv6; repeatable) whose X-Forwarded-For / Forwarded "
                + "client address and X-Forwarded-Proto are believed, for the limits, the connection cap and the "
                + "log; from any other peer those headers are ignored (default: \(environmentName), "
                + "comma- or space-separated; none).",
            valueName: "cidr"))
    var trustedProxies: [String] = []

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The server's URL as people reach it, https://HOST[:PORT] (no path), for the links it makes "
                + "(an ntfy notification's tap, unless --app-url says otherwise).",
            valueName: "url"))
    var publicURL: String?

    func validate() throws {
        _ = try trusted()
        _ = try checkedPublicURL()
    }

    /// The proxies given with --trusted-proxy, else in MORNINGPROOF_TRUSTED_PROXIES.
    func trusted(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TrustedProxies {
        do {
            guard trustedProxies.isEmpty else { return try TrustedProxies(trustedProxies.map(AddressRange.init)) }
            return try TrustedProxies(list: environment[Self.environmentName] ?? "")
        } catch let error as MorningProofError {
            let source = trustedProxies.isEmpty ? Self.environmentName : "--trusted-proxy"
            throw ValidationError("\(source): \(error.message)")
        }
    }

    /// --public-url as `scheme://host[:port]`: http or https, a host, nothing after the host but `/`.
    func checkedPublicURL() throws -> String? {
        guard let publicURL else { return nil }
        guard let url = URLComponents(string: publicURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty, url.user == nil,
            url.password == nil, url.query == nil, url.fragment == nil, ["", "/"].contains(url.path)
        else {
            throw ValidationError(
                "--public-url needs https://HOST or https://HOST:PORT (http also; no path, query or user), "
                    + "not \"\(publicURL)\"")
        }
        let port = url.port.map { ":\($0)" } ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed.lowercased())\(port)"
    }
}
