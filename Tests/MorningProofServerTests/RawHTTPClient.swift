import Foundation
import MorningProofCore

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 client on a plain socket, for what URLSession and curl will not send: bodies of any
/// size pushed as fast as the server takes them, chunked bodies, and a client that keeps sending
/// after its answer came. Loopback only.
struct RawHTTPClient: Sendable {
    let port: UInt16

    /// `http://127.0.0.1:PORT` as `ServerProcess` gives it.
    init(address: String) throws {
        guard let port = address.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw RawHTTPError("no port in \(address)")
        }
        self.port = port
    }

    /// What came back: the status (nil when the server closed without an answer), the body, how many
    /// body bytes were sent and how long it took.
    struct Exchange: Sendable {
        var status: Int?
        var body = ""
        var bytesSent = 0
        var seconds = 0.0
    }

    /// Sends `head` (the request line and headers, without the blank line) and `bodySize` bytes made
    /// by `chunk` (called with the offset and the most bytes wanted), and reads the answer. The body
    /// is pushed to its end even after the answer, unless the server closes; `timeout` bounds it all.
    func exchange(
        _ head: String, bodySize: Int = 0, timeout: Double = 60,
        chunk: (_ offset: Int, _ count: Int) -> [UInt8] = { _, count in [UInt8](repeating: 0, count: count) }
    ) throws -> Exchange {
        let start = Date()
        let socket = try connect()
        defer { close(socket) }
        var pending = Array((head + "\r\n\r\n").utf8)
        var (offset, sendingDone, received) = (0, false, [UInt8]())
        var result = Exchange()
        while Date().timeIntervalSince(start) < timeout {
            if pending.isEmpty, offset < bodySize, !sendingDone {
                let count = min(256 * 1024, bodySize - offset)
                pending = chunk(offset, count)
                offset += count
            }
            let wantWrite = !sendingDone && !pending.isEmpty
            var poller = pollfd(fd: socket, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { throw RawHTTPError("poll failed: errno \(errno)") }
            if poller.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                let count = recv(socket, &buffer, buffer.count, 0)
                if count <= 0 { break }
                received += buffer[0..<count]
                if let (status, body) = Self.answer(received) { (result.status, result.body) = (status, body) }
            }
            if wantWrite, poller.revents & Int16(POLLOUT) != 0 {
                let sent = pending.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 {
                    sendingDone = true  // the server closed its side: a client stops sending
                } else {
                    result.bytesSent += sent
                    pending.removeFirst(sent)
                }
            }
            if (sendingDone || (pending.isEmpty && offset >= bodySize)), result.status != nil { break }
        }
        result.bytesSent = max(0, result.bytesSent - head.utf8.count - 4)
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    /// `GET path` (no body), with the token when given.
    func get(_ path: String, token: String? = nil, timeout: Double = 60) throws -> Exchange {
        try exchange("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1" + Self.authorization(token), timeout: timeout)
    }

    /// `POST path` with a JSON body (Content-Length), with the token when given.
    func postJSON(_ path: String, _ json: String, token: String? = nil) throws -> Exchange {
        let body = Array(json.utf8)
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
        return try exchange(
            head + "\r\nContent-Length: \(body.count)" + Self.authorization(token), bodySize: body.count
        ) { Array(body[$0..<$0 + $1]) }
    }

    /// `bytes` in chunked transfer coding, `size` bytes a chunk, with the last chunk.
    static func chunked(_ bytes: [UInt8], size: Int) -> [UInt8] {
        var coded = [UInt8]()
        for start in stride(from: 0, to: bytes.count, by: size) {
            let end = min(bytes.count, start + size)
            coded += Array((String(end - start, radix: 16) + "\r\n").utf8) + bytes[start..<end] + Array("\r\n".utf8)
        }
        return coded + Array("0\r\n\r\n".utf8)
    }

    private static func authorization(_ token: String?) -> String {
        token.map { "\r\nAuthorization: Bearer \($0)" } ?? ""
    }

    /// A whole answer in `bytes`: its status and its body (by Content-Length), or nil while it is incomplete.
    private static func answer(_ bytes: [UInt8]) -> (Int, String)? {
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual("\r\n\r\n".utf8) })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        let length =
            lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        return (status, String(decoding: bytes[(end + 4)..<(end + 4 + length)], as: UTF8.self))
    }

    private func connect() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RawHTTPError("socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw RawHTTPError("connect to 127.0.0.1:\(port) failed: errno \(errno)")
        }
        return socket
    }
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `count` jobs at once, each on a thread of its own, and returns their results in order.
func onThreads<T: Sendable>(_ count: Int, _ job: @escaping @Sendable (Int) throws -> T) throws -> [T] {
    let results = Locked([Result<T, any Error>?](repeating: nil, count: count))
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            let result = Result { try job(index) }
            results.withLock { $0[index] = result }
            group.leave()
        }.start()
    }
    group.wait()
    return try results.withLock { $0 }.map { try $0!.get() }
}
