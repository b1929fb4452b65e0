import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IP address a request comes from, as every per-address rule counts it: the sign-in and
/// sign-up limits (`LoginThrottle`), the server's cap on connections per address, and its log.
///
/// One IPv6 /64 is one person: a home or a VPS gets a whole /64 and can pick any address in it,
/// so the limits count an IPv6 client by its /64 (`person`), an IPv4 client by its address.
/// An IPv4 address written as IPv6 (`::ffff:192.0.2.1`) is the IPv4 address.
public struct ClientAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    /// Parses an IPv4 (`192.0.2.1`) or IPv6 (`2001:db8::1`, a zone `%eth0` dropped) literal, without
    /// brackets or port; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let text = String(text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard !text.isEmpty, text.count <= 64 else { return nil }
        var v4 = in_addr()
        if !text.contains(":"), inet_pton(AF_INET, text, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// The address of these bytes (4 or 16); an IPv4-mapped IPv6 address becomes its IPv4 address.
    public init(bytes: [UInt8]) {
        if bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            self.bytes = Array(bytes.suffix(4))
        } else {
            self.bytes = bytes
        }
    }

    public var isIPv6: Bool { bytes.count == 16 }

    /// The address as text (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { source in
            inet_ntop(isIPv6 ? AF_INET6 : AF_INET, source.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Who the limits count: an IPv4 address itself, an IPv6 address's /64 (`2001:db8:0:1::/64`).
    public var person: String {
        guard isIPv6 else { return description }
        return ClientAddress(bytes: Array(bytes.prefix(8)) + [UInt8](repeating: 0, count: 8)).description + "/64"
    }

    /// Whether the first `prefixLength` bits of this address are those of `network` (same family).
    public func isWithin(_ network: ClientAddress, prefixLength: Int) -> Bool {
        guard bytes.count == network.bytes.count, prefixLength >= 0, prefixLength <= bytes.count * 8 else {
            return false
        }
        for index in bytes.indices {
            let bits = min(8, max(0, prefixLength - index * 8))
            let mask: UInt8 = bits == 0 ? 0 : ~UInt8(0) << (8 - bits)
            if bytes[index] & mask != network.bytes[index] & mask { return false }
        }
        return true
    }

    /// The key a per-address limit counts `address` under: `person` when it is an IP address, else
    /// the text as given (`unknown`, in tests without a socket).
    public static func person(of address: String) -> String {
        ClientAddress(address)?.person ?? address
    }
}
