import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address as bytes (4 for IPv4, 16 for IPv6), and whether notifications may go to it.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 or 16 bytes, network order.
    public let bytes: [UInt8]

    /// Parses an IPv4 or IPv6 literal (without brackets); nil when `text` is no address.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// An IPv4 address in a form resolvers also read (`127.1`, `0x7f.1`, `017700000001`,
    /// `2130706433`: inet_aton's), which `init?(_:)` does not; nil for anything else.
    public init?(shorthandIPv4 text: String) {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "." || $0 == "x" || $0 == "X") })
        else { return nil }
        var v4 = in_addr()
        guard inet_aton(text, &v4) != 0 else { return nil }
        bytes = withUnsafeBytes(of: &v4) { Array($0) }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The address as text (`10.1.2.3`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { source in
            inet_ntop(family, source.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why no notification may go to this address (`"a private address"`), or nil for a public one.
    public var refusal: String? {
        bytes.count == 4 ? Self.refusalV4(bytes) : Self.refusalV6(bytes)
    }

    private static func refusalV4(_ b: [UInt8]) -> String? {
        let value = b.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        func within(_ network: UInt32, _ prefix: UInt32) -> Bool {
            let mask: UInt32 = prefix == 0 ? 0 : ~UInt32(0) << (32 - prefix)
            return value & mask == network & mask
        }
        if value == 0xA9FE_A9FE { return "the cloud metadata address" }
        if value == 0xFFFF_FFFF { return "the broadcast address" }
        let ranges: [(UInt32, UInt32, String)] = [
            (0x0000_0000, 8, "an unspecified (\"this network\") address"),
            (0x0A00_0000, 8, "a private address"),
            (0x6440_0000, 10, "a shared (CGNAT) address"),
            (0x7F00_0000, 8, "a loopback address"),
            (0xA9FE_0000, 16, "a link-local address"),
            (0xAC10_0000, 12, "a private address"),
            (0xC000_0000, 24, "an IETF protocol address"),
            (0xC000_0200, 24, "a documentation address"),
            (0xC0A8_0000, 16, "a private address"),
            (0xC612_0000, 15, "a benchmarking address"),
            (0xC633_6400, 24, "a documentation address"),
            (0xCB00_7100, 24, "a documentation address"),
            (0xE000_0000, 4, "a multicast address"),
            (0xF000_0000, 4, "a reserved address"),
        ]
        return ranges.first { within($0.0, $0.1) }?.2
    }

    private static func refusalV6(_ b: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], bits: Int) -> Bool {
            for index in 0..<(bits / 8) where b[index] != prefix[index] { return false }
            let rest = bits % 8
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return b[bits / 8] & mask == prefix[bits / 8] & mask
        }
        let embedded = IPAddress(bytes: Array(b[12..<16]))
        if b == [UInt8](repeating: 0, count: 16) { return "the unspecified address" }
        if b == [UInt8](repeating: 0, count: 15) + [1] { return "a loopback address" }
        // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) are the IPv4 address.
        if starts([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], bits: 96)
            || starts([UInt8](repeating: 0, count: 12), bits: 96)
        {
            return embedded.refusal.map { "\($0) (IPv4 \(embedded) inside IPv6)" }
        }
        // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address; its local-use /48 is private.
        if starts([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0], bits: 96) {
            return embedded.refusal.map { "\($0) (IPv4 \(embedded) inside NAT64)" }
        }
        if starts([0, 0x64, 0xFF, 0x9B, 0, 1], bits: 48) { return "a local-use NAT64 address" }
        // 6to4 (2002::/16) carries its IPv4 address in bytes 2 to 5.
        if starts([0x20, 0x02], bits: 16) {
            let inner = IPAddress(bytes: Array(b[2..<6]))
            return inner.refusal.map { "\($0) (IPv4 \(inner) inside 6to4)" }
        }
        if b == [0xFD, 0, 0x0E, 0xC2] + [UInt8](repeating: 0, count: 10) + [0x02, 0x54] {
            return "the cloud metadata address"
        }
        let ranges: [([UInt8], Int, String)] = [
            ([0x01, 0, 0, 0, 0, 0, 0, 0], 64, "a discard address"),
            ([0x20, 0x01, 0, 0], 32, "a Teredo address"),
            ([0x20, 0x01, 0x0D, 0xB8], 32, "a documentation address"),
            ([0xFC], 7, "a unique local (private) address"),
            ([0xFE, 0x80], 10, "a link-local address"),
            ([0xFE, 0xC0], 10, "a site-local address"),
            ([0xFF], 8, "a multicast address"),
        ]
        return ranges.first { starts($0.0, bits: $0.1) }?.2
    }
}
