import Foundation
import Glibc
import MorningProofTestSupport

/// A client of a server behind a proxy (or pretending to be one): one request per connection,
/// from a loopback source address of its choice, with the forwarding headers it chooses.
struct ProxyClient {
    let port: Int
    /// The loopback address the connection comes from.
    var source = "127.0.0.1"
    /// Extra header lines (`X-Forwarded-For: 1.2.3.4`).
    var headers: [String] = []

    /// Sends one request and reads its answer: the status and the head.
    func send(_ method: String, _ path: String, json: String? = nil) throws -> (status: Int, head: String) {
        let connection = try RawConnection(port: port, from: source)
        let body = json ?? ""
        var lines = ["\(method) \(path) HTTP/1.1", "Host: morningproof.test", "Connection: close"]
        if json != nil { lines += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
        lines += headers
        connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n" + body)
        let head = try connection.response(within: 60).head
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, head)
    }

    func signUp(_ email: String, password: String = "correct horse battery") throws -> Int {
        try send(
            "POST", "/api/auth/signup",
            json: #"{"email": "\#(email)", "password": "\#(password)", "timezone": "Europe/Istanbul"}"#
        ).status
    }

    func logIn(_ email: String, password: String = "correct horse battery") throws -> Int {
        try send("POST", "/api/auth/login", json: #"{"email": "\#(email)", "password": "\#(password)"}"#).status
    }

    /// This client with `header` added.
    func with(_ header: String) -> ProxyClient {
        var copy = self
        copy.headers.append(header)
        return copy
    }
}

/// A free TCP port on 127.0.0.1 (free when asked; a test that listens on it soon after).
func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw TestFailure("no free port: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
}
