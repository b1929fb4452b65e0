import Foundation
import MorningProofTestSupport
import Testing

/// The built server's HTTP/1 details (issue 23, findings 8 and 10): an early answer ends the
/// connection, framing it cannot read is 400 or 501 (never 500), HTTP/1.0 closes, HEAD is
/// answered wherever GET is.
@Suite("morningproof-server: early answers, framing, HTTP/1.0 and HEAD", .serialized)
struct HTTPDetailTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-http-\(UUID().uuidString)/data.sqlite").path

    /// Runs `body` against a server whose timeouts are all 30 s: whatever closes a connection
    /// within a few seconds here is not a timeout.
    private func withServer(_ body: @escaping @Sendable (Int) throws -> Void) async throws {
        let server = try ServerProcess([
            "--db", database, "--port", "0", "--head-timeout", "30", "--idle-timeout", "30", "--body-timeout", "30",
        ])
        try await OwnThread.run { try body(RawConnection.port(of: server.address)) }
        #expect(server.stop() == 0)
    }

    /// A 300 MB upload to a path that does not exist: the 404 comes at once, then the connection
    /// closes, so that the sender is not left blocked until its own timeout.
    @Test func anEarlyAnswerClosesTheConnectionWhileTheBodyIsStillArriving() async throws {
        try await withServer { port in
            let client = try RawConnection(port: port)
            client.send(
                "POST /nowhere HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: 300000000\r\n\r\n")
            let sender = Thread {
                let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
                for _ in 0..<4000 {
                    guard client.send(chunk) else { return }
                    usleep(20_000)
                }
            }
            sender.start()
            let answer = try client.response(within: 5)
            #expect(answer.head.hasPrefix("HTTP/1.1 404"))
            #expect(answer.head.lowercased().contains("connection: close"))
            let answered = Date()
            #expect(client.isClosed(within: 5))
            #expect(Date().timeIntervalSince(answered) < 5)
        }
    }

    @Test func transferCodingsOtherThanChunkedAre501AndAHugeChunkSizeIs400() async throws {
        try await withServer { port in
            let unknown = try RawConnection(port: port)
            unknown.send(
                "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: xchunked\r\n\r\n{}")
            let notImplemented = try unknown.response(within: 5)
            #expect(notImplemented.head.hasPrefix("HTTP/1.1 501"))
            #expect(String(decoding: notImplemented.body, as: UTF8.self).contains(#""code":"not_implemented""#))
            #expect(unknown.isClosed(within: 5))

            let huge = try RawConnection(port: port)
            huge.send(
                "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFF\r\nabc\r\n0\r\n\r\n")
            let bad = try huge.response(within: 5)
            #expect(bad.head.hasPrefix("HTTP/1.1 400"))
            #expect(String(decoding: bad.body, as: UTF8.self).contains(#""code":"bad_request""#))
            #expect(huge.isClosed(within: 5))
        }
    }

    @Test func anHTTP10RequestWithoutKeepAliveIsAnsweredWithCloseAndClosed() async throws {
        try await withServer { port in
            let old = try RawConnection(port: port)
            old.send("GET /health HTTP/1.0\r\n\r\n")
            let answer = try old.response(within: 5)
            #expect(answer.head.hasPrefix("HTTP/1.1 200"))
            #expect(answer.head.lowercased().contains("connection: close"))
            #expect(old.isClosed(within: 5))

            // One that asks for keep-alive is told it has it, and may send another request.
            let kept = try RawConnection(port: port)
            kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try kept.response(within: 5).head.lowercased().contains("connection: keep-alive"))
            kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try kept.response(within: 5).head.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func headIsAnsweredOnGetRoutesWithTheGetsHeadersAndNoBody() async throws {
        try await withServer { port in
            let client = try RawConnection(port: port)
            client.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let get = try client.response(within: 5)
            client.send("HEAD /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // A HEAD answer has no body, whatever its Content-Length says: read the head alone.
            var head = [UInt8]()
            while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n") {
                head += try #require(client.receive(within: 5))
            }
            let text = String(decoding: head, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"))
            #expect(text.contains("Content-Length: \(get.body.count)"))
            #expect(text.hasSuffix("\r\n\r\n"), "a body followed the HEAD answer: \(text)")
            // The connection is still in step: the next answer starts right after the head.
            client.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.response(within: 5).body == get.body)

            // Routes that need a token answer HEAD as they answer GET; Allow lists HEAD.
            client.send("HEAD /api/habits HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let unauthorized = try #require(client.receive(within: 5))
            #expect(String(decoding: unauthorized, as: UTF8.self).hasPrefix("HTTP/1.1 401"))
            let other = try RawConnection(port: port)
            other.send("DELETE /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let notAllowed = try other.response(within: 5)
            #expect(notAllowed.head.hasPrefix("HTTP/1.1 405"))
            #expect(notAllowed.head.contains("Allow: GET, HEAD\r\n"))
        }
    }
}
