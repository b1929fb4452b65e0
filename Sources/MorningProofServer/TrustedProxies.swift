import HTTPTypes
import MorningProofCore
import MorningProofService

/// An IP address range in CIDR form (`10.0.0.0/8`, `2001:db8::/32`; a bare address is one address:
/// /32 or /128).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    public let network: ClientAddress
    public let prefixLength: Int

    /// Reads `text`, or throws a usage error that names it.
    public init(_ text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = ClientAddress(parts[0]), !parts[0].contains("%") else {
            throw MorningProofError.usage(
                "\"\(text)\" is not an IP address or CIDR range (10.0.0.0/8, fd00::/8, 127.0.0.1)")
        }
        let bits = network.bytes.count * 8
        let length = parts.count == 2 ? Int(parts[1]) : bits
        guard let length, (0...bits).contains(length), parts.count == 1 || parts[1].allSatisfy(\.isASCII) else {
            throw MorningProofError.usage("\"\(text)\": the prefix length must be 0 to \(bits)")
        }
        self.network = network
        prefixLength = length
    }

    public func contains(_ address: ClientAddress) -> Bool {
        address.isWithin(network, prefixLength: prefixLength)
    }

    public var description: String { "\(network)/\(prefixLength)" }
}

/// The proxies whose word about the client is taken (`serve --trusted-proxy`): only a request whose
/// TCP peer is inside one of these ranges has its client address, scheme and host read from its
/// `X-Forwarded-*` or `Forwarded` headers. From any other peer those headers change nothing.
public struct TrustedProxies: Sendable {
    public var ranges: [AddressRange]

    public init(_ ranges: [AddressRange] = []) {
        self.ranges = ranges
    }

    /// Reads a list of ranges separated by commas or spaces (`MORNINGPROOF_TRUSTED_PROXIES`).
    public init(list: String) throws {
        ranges = try list.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { try AddressRange(String($0)) }
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func contains(_ address: ClientAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// Who sent the request whose TCP peer is `peer`: the peer itself, or, when the peer is a
    /// trusted proxy, the client its headers name (`ForwardedHeaders`). Headers that cannot be
    /// read leave the peer as the client.
    /// `authority` is the request's `Host`.
    public func origin(peer: ClientAddress?, headers: HTTPFields, authority: String? = nil) -> RequestOrigin {
        guard let peer, contains(peer) else { return RequestOrigin(client: peer, viaTrustedProxy: false) }
        let forwarded = ForwardedHeaders(headers, authority: authority)
        var origin = RequestOrigin(client: peer, viaTrustedProxy: true, scheme: forwarded.scheme, host: forwarded.host)
        // Right to left: each hop the proxies appended, until the first that is not itself a proxy.
        var chain = forwarded.clients[...]
        while let last = chain.popLast() {
            guard let hop = last else {  // unreadable, "unknown" or obfuscated: the peer is all we know
                origin.client = peer
                break
            }
            origin.client = hop
            if !contains(hop) { break }
        }
        return origin
    }
}

/// Where a request came from, as the server believes it.
public struct RequestOrigin: Sendable, Equatable {
    /// The client's address: the peer's, or the one a trusted proxy forwarded; nil without a socket.
    public var client: ClientAddress?
    /// Whether the peer is a trusted proxy (then it is not capped per address).
    public var viaTrustedProxy: Bool
    /// `https` or `http` as a trusted proxy said; nil when it said nothing (or is not trusted).
    public var scheme: String?
    /// The host (and port) the client asked the proxy for, as a trusted proxy said.
    public var host: String?

    public init(client: ClientAddress?, viaTrustedProxy: Bool, scheme: String? = nil, host: String? = nil) {
        self.client = client
        self.viaTrustedProxy = viaTrustedProxy
        self.scheme = scheme
        self.host = host
    }

    /// The client's address as the log and the limits name it (`unknown` without one).
    public var clientText: String { client?.description ?? "unknown" }

    /// `https://HOST` from a trusted proxy's scheme and host, when it gave both.
    public var publicURL: String? {
        guard let scheme, let host else { return nil }
        return "\(scheme)://\(host)"
    }
}
