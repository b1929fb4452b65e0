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

    public init(allowLocalTargets: Bool = false) {
        self.allowLocalTargets = allowLocalTargets
    }

    /// A target that passed the checks: its URL, its host name and the address to connect to.
    public struct Target: Sendable, Hashable {
        public let url: URL
        /// The URL's host as written (without IPv6 brackets), lowercased.
        public let host: String
        /// The checked address the connection goes to (never resolved again).
        public let address: IPAddress
    }

    /// Why a target was refused: one line for a person, naming the host, never a path or token.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let description: String
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
                addresses = try await NIOThreadPool.singleton.runIfActive { try Self.resolve(host) }
            } catch let refusal as Refusal {
                return .failure(refusal)
            } catch {
                return .failure(Refusal(description: "\(host): cannot be resolved (\(error))"))
            }
        }
        if let refusal = refusal(of: addresses, host: host) { return .failure(refusal) }
        // Prefer IPv4 where both are offered: many hosts have no IPv6 route.
        guard let chosen = addresses.first(where: { $0.bytes.count == 4 }) ?? addresses.first else {
            return .failure(Refusal(description: "\(host): no address"))
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
        for address in addresses {
            if let why = address.refusal {
                let named = address.description == host ? "\(host) is" : "\(host) resolves to \(address),"
                return Refusal(description: "\(named) \(why); notifications go only to public addresses")
            }
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
        return .success((url, host))
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
            throw Refusal(description: "\(host): cannot be resolved (\(reason))")
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
        guard !addresses.isEmpty else { throw Refusal(description: "\(host): no address") }
        return addresses
    }
}
