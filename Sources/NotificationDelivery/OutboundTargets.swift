import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where notifications may go: public `https` targets only, checked after DNS resolution, unless
/// `allowLocalTargets` (serve's `--allow-local-notify-targets`, for tests and demos) lifts both rules.
public struct OutboundTargets: Sendable {
    /// True to allow `http` and loopback, private and link-local addresses.
    public var allowLocalTargets: Bool
    /// How a host name becomes addresses: getaddrinfo, or a test's stand-in.
    let resolver: @Sendable (String) throws -> [IPAddress]

    public init(allowLocalTargets: Bool = false) {
        self.init(allowLocalTargets: allowLocalTargets, resolver: Self.resolve)
    }

    init(allowLocalTargets: Bool, resolver: @escaping @Sendable (String) throws -> [IPAddress]) {
        self.allowLocalTargets = allowLocalTargets
        self.resolver = resolver
    }

    /// A target that passed the checks: its URL, its host name and the address to connect to.
    public struct Target: Sendable, Hashable {
        /// The URL as requested: its host spelled exactly as `host`.
        public let url: URL
        /// The URL's host without IPv6 brackets, lowercased, without a trailing dot (an IDN in its
        /// ASCII form): the name the checked address is pinned under.
        public let host: String
        /// The checked address the connection goes to (never resolved again).
        public let address: IPAddress
    }

    /// Why a target was refused: one line for a person, naming the host, never a path or token,
    /// nor an address the server resolved (`detail` has that, for the server's log).
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
        /// What the server found (the resolved address, the resolver's error), for its log only.
        public let detail: String?

        init(description: String, detail: String? = nil) {
            self.description = description
            self.detail = detail
        }

        /// A name that cannot be resolved, or resolves to no public address: one answer for both,
        /// so that the answers do not map the server's network.
        static func unreachable(_ host: String, detail: String) -> Refusal {
            Refusal(
                description:
                    "\(host) is not reachable from the internet: check the name (notifications go only to public addresses)",
                detail: detail)
        }
    }

    /// Checks `text` and resolves its host (on NIO's blocking pool); refuses when any resolved
    /// address is not public (unless local targets are allowed).
    public func check(_ text: String) async -> Result<Target, Refusal> {
        let url: URL
        let host: String
        switch parse(text) {
        case .success(let parsed): (url, host) = parsed
        case .failure(let refusal): return .failure(refusal)
        }
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            do {
                let resolver = self.resolver
                addresses = try await NIOThreadPool.singleton.runIfActive { try resolver(host) }
            } catch let refusal as Refusal {
                return .failure(refusal)
            } catch {
                return .failure(.unreachable(host, detail: "\(host): cannot be resolved (\(error))"))
            }
        }
        if let refusal = refusal(of: addresses, host: host) { return .failure(refusal) }
        // Prefer IPv4 where both are offered: many hosts have no IPv6 route.
        guard let chosen = addresses.first(where: { $0.bytes.count == 4 }) ?? addresses.first else {
            return .failure(.unreachable(host, detail: "\(host): no address"))
        }
        return .success(Target(url: url, host: host, address: chosen))
    }

    /// The checks that need no DNS (the scheme, the form, an IP literal's address), for an API that
    /// stores a channel's URL: nil when the URL may be stored, else why not.
    public func refusalBeforeResolving(_ text: String) -> Refusal? {
        switch parse(text) {
        case .success(let (_, host)):
            (IPAddress(host) ?? IPAddress(shorthandIPv4: host)).flatMap { refusal(of: [$0], host: host) }
        case .failure(let refusal): refusal
        }
    }

    private func refusal(of addresses: [IPAddress], host: String) -> Refusal? {
        guard !allowLocalTargets else { return nil }
        // An address the person wrote (`10.0.0.1`, `0x7f.1`) may be named; one the server resolved may not.
        let written = IPAddress(host) ?? IPAddress(shorthandIPv4: host)
        for address in addresses {
            guard let why = address.refusal else { continue }
            let found = "\(host) resolves to \(address), \(why)"
            guard address == written else { return .unreachable(host, detail: found) }
            let named = address.description == host ? "\(host) is" : "\(host) is \(address),"
            return Refusal(description: "\(named) \(why); notifications go only to public addresses")
        }
        return nil
    }

    /// The URL and its host, when the scheme and the form are acceptable (no DNS).
    func parse(_ text: String) -> Result<(URL, String), Refusal> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            return .failure(Refusal(description: "not a URL"))
        }
        guard scheme == "https" || (scheme == "http" && allowLocalTargets) else {
            return .failure(
                Refusal(
                    description: scheme == "http"
                        ? "http is refused: notifications go only to https URLs"
                        : "\(scheme): is no https URL"))
        }
        guard var host = url.host?.lowercased(), !host.isEmpty else {
            return .failure(Refusal(description: "the URL has no host"))
        }
        guard url.user == nil, url.password == nil else {
            return .failure(Refusal(description: "\(host): a user name or password in the URL is refused"))
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // A zone id (`[fe80::1%25eth0]`) names a local interface: no public target has one.
        guard !host.contains("%") else {
            return .failure(Refusal(description: "an address with a zone id (%) is refused"))
        }
        guard !host.contains(":") else { return .success((url, host)) }  // IPv6: connected to as written
        // `rebind.test.` is `rebind.test`; Foundation has already made an IDN its punycode.
        if host.hasSuffix(".") { host.removeLast() }
        guard let rebuilt = Self.url(url, host: host) else {
            return .failure(Refusal(description: "\(host): the host name cannot be used"))
        }
        return .success((rebuilt, host))
    }

    /// `url` with its host spelled `host`, when the HTTP client will read that host back exactly:
    /// the checked address is pinned under `host`, and any other spelling would be resolved again.
    static func url(_ url: URL, host: String) -> URL? {
        guard !host.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return nil
        }
        components.host = host
        guard let rebuilt = components.url, URL(string: rebuilt.absoluteString)?.host == host else { return nil }
        return rebuilt
    }

    /// Every address `host` resolves to (getaddrinfo; blocking).
    static func resolve(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw Refusal.unreachable(host, detail: "\(host): cannot be resolved (\(reason))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch Int32(socketAddress.pointee.sa_family) {
                case AF_INET:
                    let v4 = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: v4) { Array($0) }))
                case AF_INET6:
                    let v6 = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        $0.pointee.sin6_addr
                    }
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: v6) { Array($0) }))
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw Refusal.unreachable(host, detail: "\(host): no address") }
        return addresses
    }
}
