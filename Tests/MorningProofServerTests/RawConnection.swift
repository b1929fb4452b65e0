import Foundation
import Glibc
import MorningProofTestSupport

/// A TCP connection to a server on this machine, byte by byte, as a hostile or an old client
/// talks: half a head, a stalled body, HTTP/1.0. Every wait has a bound, so that a server that
/// never answers fails the test instead of freezing it.
/// Sending from one thread while another receives is safe: `send` touches only the descriptor.
final class RawConnection: @unchecked Sendable {
    let descriptor: Int32
    private var buffered = [UInt8]()

    /// Connects to `port` on 127.0.0.1, from `source` (another loopback address, say) when given.
    init(port: Int, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        if let source {
            guard Self.call(bind, descriptor, Self.address(source, port: 0)) == 0 else {
                close(descriptor)
                throw TestFailure("bind \(source): \(String(cString: strerror(errno)))")
            }
        }
        guard Self.call(connect, descriptor, Self.address("127.0.0.1", port: port)) == 0 else {
            close(descriptor)
            throw TestFailure("connect: \(String(cString: strerror(errno)))")
        }
    }

    /// `bind` or `connect` with an IPv4 address.
    private static func call(
        _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, _ descriptor: Int32, _ address: sockaddr_in
    ) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                function(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    deinit { close(descriptor) }

    /// The port of `address` (`http://127.0.0.1:PORT`).
    static func port(of address: String) -> Int {
        Int(address.split(separator: ":").last ?? "") ?? 0
    }

    /// Sends `text`; false when the server has closed the connection (EPIPE, ECONNRESET).
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Waits at most `seconds` for bytes; nil when the server closed the connection, [] when none came.
    func receive(within seconds: Double) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(chunk[..<count]) : nil
    }

    /// Whether the server closes the connection within `seconds`; what it sends meanwhile is read and dropped.
    func isClosed(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if receive(within: max(0.01, deadline.timeIntervalSinceNow)) == nil { return true }
        }
        return false
    }

    /// One response: its head as text and its body (by `Content-Length`), read within `seconds`.
    func response(within seconds: Double) throws -> (head: String, body: [UInt8]) {
        let deadline = Date().addingTimeInterval(seconds)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = Self.find(separator, in: buffered) {
                let head = String(decoding: buffered[..<end], as: UTF8.self)
                let length = Self.contentLength(in: head)
                if buffered.count >= end + 4 + length {
                    let body = Array(buffered[(end + 4)..<(end + 4 + length)])
                    buffered.removeFirst(end + 4 + length)
                    return (head, body)
                }
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let bytes = receive(within: left) else {
                throw TestFailure(
                    "no whole response within \(seconds) s; got \(String(decoding: buffered, as: UTF8.self))")
            }
            buffered += bytes
        }
    }

    /// What was read beyond the last response.
    var unread: [UInt8] { buffered }

    private static func contentLength(in head: String) -> Int {
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            return Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }
}

/// The open-file limit of this process, raised to at least `wanted` (up to the hard limit).
func raiseOpenFileLimit(to wanted: Int) -> Int {
    var limit = rlimit()
    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur < rlim_t(wanted) {
        limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
    return Int(limit.rlim_cur)
}
