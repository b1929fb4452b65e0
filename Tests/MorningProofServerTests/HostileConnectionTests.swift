import Foundation
import Glibc
import MorningProofTestSupport
import Testing

/// The built server against clients that never finish, never leave, or come in too many (issue
/// 23, finding 3): every connection state has its timeout, set short here through `serve`'s
/// options, and the caps on connections hold. Bounds are generous: they prove "closed, not left
/// open for ever", not a speed.
@Suite("morningproof-server: connection timeouts and caps", .serialized)
struct HostileConnectionTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-hostile-\(UUID().uuidString)/data.sqlite").path

    /// A server with `options` (each timeout 30 s unless given), and its port.
    private func server(_ options: [String]) throws -> (process: ServerProcess, port: Int) {
        var arguments = ["--db", database, "--port", "0"]
        for option in ["--head-timeout", "--idle-timeout", "--body-timeout", "--request-timeout"]
        where !options.contains(option) {
            arguments += [option, "30"]
        }
        let process = try ServerProcess(arguments + options)
        return (process, RawConnection.port(of: process.address))
    }

    /// 1,100 half-sent heads: with the common limit of 1,024 descriptors they once locked every
    /// client out for good. Each is closed once the head timeout has passed, and a new client is served.
    @Test func halfSentHeadsAreClosedAfterTheHeadTimeoutAndANewClientIsServed() async throws {
        let count = 1100
        let limit = raiseOpenFileLimit(to: count + 200)
        try #require(limit >= count + 100, "this test needs \(count + 100) open files; the hard limit is \(limit)")
        let (server, port) = try server([
            "--head-timeout", "2", "--max-connections", "3000", "--max-connections-per-address", "3000",
        ])
        try await OwnThread.run {
            let opened = Date()
            var connections = [RawConnection]()
            for _ in 0..<count {
                let connection = try RawConnection(port: port)
                connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Half: ")
                connections.append(connection)
            }
            // Still open while the timeout runs: what closes them is the timeout, not a cap.
            #expect(connections.suffix(10).allSatisfy { !$0.isClosed(within: 0.05) })

            var polls = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            var open = Set(polls.indices)
            let deadline = Date().addingTimeInterval(2 + 8)
            while !open.isEmpty && Date() < deadline {
                _ = poll(&polls, nfds_t(polls.count), 200)
                for index in open where polls[index].revents != 0 {
                    if connections[index].receive(within: 0) == nil { open.remove(index) }
                }
            }
            #expect(open.isEmpty, "\(open.count) of \(count) half-sent requests still open")
            #expect(Date().timeIntervalSince(opened) >= 2, "closed before the head timeout")

            let client = try RawConnection(port: port)
            client.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.response(within: 5).head.hasPrefix("HTTP/1.1 200"))
        }
        #expect(server.stop() == 0)
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        let (server, port) = try server(["--idle-timeout", "1"])
        try await OwnThread.run {
            let client = try RawConnection(port: port)
            client.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.response(within: 5).head.hasPrefix("HTTP/1.1 200"))
            // Kept alive: a second request on it is answered.
            client.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.response(within: 5).head.hasPrefix("HTTP/1.1 200"))
            // Then closed after one idle second, long before the 30 s of the other timeouts.
            #expect(client.isClosed(within: 6))
        }
        #expect(server.stop() == 0)
    }

    @Test func aStalledBodyIsClosedAfterTheBodyTimeout() async throws {
        let (server, port) = try server(["--body-timeout", "1"])
        try await OwnThread.run {
            let client = try RawConnection(port: port)
            client.send(
                "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"email\": ")
            #expect(client.isClosed(within: 6))
        }
        #expect(server.stop() == 0)
    }

    /// A body that keeps trickling never stalls, and is still cut off once the whole request's time is up.
    @Test func aTricklingBodyIsClosedAfterTheRequestTimeout() async throws {
        let (server, port) = try server(["--request-timeout", "2"])
        try await OwnThread.run {
            let client = try RawConnection(port: port)
            client.send(
                "POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n")
            let started = Date()
            var closed = false
            while !closed && Date().timeIntervalSince(started) < 10 {
                closed = !client.send(" ") || client.isClosed(within: 0.2)
            }
            #expect(closed)
            #expect(Date().timeIntervalSince(started) >= 1.5)
        }
        #expect(server.stop() == 0)
    }

    /// Beyond its share, an address's connections are closed at once, while another address is served.
    @Test func anAddressBeyondItsShareIsClosedWhileAnotherIsServed() async throws {
        let (server, port) = try server(["--max-connections-per-address", "3"])
        try await OwnThread.run {
            // One at a time, each served: connections are set up on several threads.
            var held = [RawConnection]()
            for _ in 0..<3 {
                held.append(try RawConnection(port: port))
                #expect(try Self.health(on: held.last!))
            }
            let fourth = try RawConnection(port: port)
            fourth.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(fourth.isClosed(within: 5))

            #expect(try Self.health(on: RawConnection(port: port, from: "127.0.0.2")))

            // One of the three leaves: the address may open another.
            held.removeFirst()
            usleep(500_000)
            #expect(try Self.health(on: RawConnection(port: port)))
            withExtendedLifetime(held) {}
        }
        #expect(server.stop() == 0)
    }

    /// Beyond the total cap, connections wait (in the listen backlog) until one closes.
    @Test func beyondTheTotalCapAConnectionWaitsUntilOneCloses() async throws {
        let (server, port) = try server(["--max-connections", "2", "--max-connections-per-address", "2"])
        try await OwnThread.run {
            var held = [RawConnection]()
            for source in ["127.0.0.2", "127.0.0.3"] {
                held.append(try RawConnection(port: port, from: source))
                #expect(try Self.health(on: held.last!))
            }
            let third = try RawConnection(port: port, from: "127.0.0.4")
            third.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(third.receive(within: 1) == [])
            held.removeFirst()
            #expect(try third.response(within: 5).head.hasPrefix("HTTP/1.1 200"))
            withExtendedLifetime(held) {}
        }
        #expect(server.stop() == 0)
    }

    /// Whether `GET /health` on `connection` is answered 200.
    private static func health(on connection: RawConnection) throws -> Bool {
        connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        return try connection.response(within: 5).head.hasPrefix("HTTP/1.1 200")
    }

    @Test func outOfRangeConnectionOptionsAreUsageErrors() throws {
        for (option, value, message) in [
            ("--head-timeout", "0", "--head-timeout must be 0.1 to 86400 seconds"),
            ("--body-timeout", "0.05", "--body-timeout must be 0.1 to 86400 seconds"),
            ("--max-connections", "0", "--max-connections must be 1 to 1000000"),
            ("--body-rate-window", "0", "--body-rate-window must be 0.1 to 86400 seconds"),
            ("--min-body-rate", "2000000000", "--min-body-rate must be 0 to 1073741824 bytes a second"),
            ("--max-connections-per-address", "5000", "--max-connections-per-address must be 1 to --max-connections"),
        ] {
            let refused = try BuiltBinary.run(
                "morningproof-server", ["serve", "--db", database, "--port", "0", option, value])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
    }
}
