import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// How long one delivery may take: to connect, and in all (connect, send, answer, body).
public struct DeliveryTimeouts: Sendable, Hashable {
    public var connect: Duration
    public var total: Duration

    /// 5 s to connect, 10 s in all (the bounds); tests give shorter ones.
    public init(connect: Duration = .seconds(5), total: Duration = .seconds(10)) {
        self.connect = connect
        self.total = total
    }
}

/// What a POST to a checked target came back with.
enum PostOutcome: Sendable {
    /// An answer, with its status (its body, at most 64 KiB of it, was read and dropped).
    case answered(Int)
    /// No answer: a timeout or a connection error, one line for a person.
    case unanswered(String)
}

/// The HTTP clients deliveries use: one per checked host and address, so that a connection goes
/// to the address that was checked (`dnsOverride`) while TLS still names the host. Bounded: the
/// least recently used idle client beyond `capacity` is shut down.
final class OutboundClients: Sendable {
    /// The most of an answer's body that is read before the connection is dropped.
    static let bodyLimit = 64 * 1024

    private struct Entry {
        var client: HTTPClient
        var users: Int
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var tick: UInt64 = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let timeouts: DeliveryTimeouts
    private let logger: Logger

    init(timeouts: DeliveryTimeouts, capacity: Int = 32, logger: Logger = Logger(label: "morningproof.delivery")) {
        self.timeouts = timeouts
        self.capacity = max(1, capacity)
        self.logger = logger
    }

    deinit {
        // A sender dropped without `shutdown()`: its clients still close (a debug build traps on a
        // client released while running).
        let clients = state.withLock { state in state.entries.values.map(\.client) }
        for client in clients { Task { try? await client.shutdown() } }
    }

    /// POSTs `body` to the checked target, never following a redirect, within the timeouts.
    func post(to target: OutboundTargets.Target, headers: [(String, String)], body: Data) async -> PostOutcome {
        // The client resolves the URL's host unless it is the pinned one: refuse any other spelling.
        let pinned = IPAddress(target.host) != nil || URL(string: target.url.absoluteString)?.host == target.host
        guard pinned else { return .unanswered("the host name cannot be used") }
        let key = "\(target.host)|\(target.address)"
        guard let client = lease(key, target: target) else { return .unanswered("delivery is shut down") }
        defer { release(key) }
        var request = HTTPClientRequest(url: target.url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let prepared = request
        let total = timeouts.total
        let deadline = NIODeadline.now() + TimeAmount(total)
        do {
            return try await withThrowingTaskGroup(of: PostOutcome.self) { group in
                group.addTask {
                    let response = try await client.execute(prepared, deadline: deadline)
                    var read = 0
                    for try await chunk in response.body {
                        read += chunk.readableBytes
                        if read >= Self.bodyLimit { break }
                    }
                    return .answered(Int(response.status.code))
                }
                // The client's deadline covers the answer's head; this covers its body too.
                group.addTask {
                    try await Task.sleep(for: total)
                    return .unanswered("no answer within \(Self.seconds(total))")
                }
                let first = try await group.next() ?? .unanswered("no answer")
                group.cancelAll()
                return first
            }
        } catch {
            // The person learns what to fix; the log keeps what happened below TLS, and where.
            logger.debug(
                "notification delivery failed",
                metadata: [
                    "host": "\(target.host)", "address": "\(target.address)",
                    "error": "\(Self.oneLine(String(describing: error)))",
                ])
            return .unanswered(describe(error))
        }
    }

    /// Shuts every client down; later posts answer "delivery is shut down".
    func shutdown() async {
        let clients = state.withLock { state -> [HTTPClient] in
            state.closed = true
            defer { state.entries = [:] }
            return state.entries.values.map(\.client)
        }
        for client in clients { try? await client.shutdown() }
    }

    private func lease(_ key: String, target: OutboundTargets.Target) -> HTTPClient? {
        let (client, evicted) = state.withLock { state -> (HTTPClient?, [HTTPClient]) in
            guard !state.closed else { return (nil, []) }
            state.tick += 1
            if var entry = state.entries[key] {
                entry.users += 1
                entry.lastUsed = state.tick
                state.entries[key] = entry
                return (entry.client, [])
            }
            let client = makeClient(for: target)
            state.entries[key] = Entry(client: client, users: 1, lastUsed: state.tick)
            var evicted: [HTTPClient] = []
            while state.entries.count > capacity,
                let idle = state.entries.filter({ $0.value.users == 0 }).min(by: {
                    $0.value.lastUsed < $1.value.lastUsed
                })
            {
                evicted.append(idle.value.client)
                state.entries[idle.key] = nil
            }
            return (client, evicted)
        }
        if !evicted.isEmpty {
            Task { for client in evicted { try? await client.shutdown() } }
        }
        return client
    }

    private func release(_ key: String) {
        state.withLock { state in
            if var entry = state.entries[key] {
                entry.users -= 1
                state.entries[key] = entry
            }
        }
    }

    private func makeClient(for target: OutboundTargets.Target) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(timeouts.connect), read: TimeAmount(timeouts.total)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 16))
        // The connection goes to the address that was checked; SNI and the certificate stay the host's.
        if IPAddress(target.host) == nil { configuration.dnsOverride = [target.host: target.address.description] }
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// One line for a person: what to fix, never whether a port was refused, timed out or failed
    /// the TLS handshake (that would let an account scan ports through the server).
    private func describe(_ error: any Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout: return "no answer within \(Self.seconds(timeouts.total))"
            case .alreadyShutdown: return "delivery is shut down"
            default: break
            }
        }
        return Self.notReached
    }

    /// Every failure to reach the server, whatever its kind below TLS.
    static let notReached = "the server did not answer: check the URL, its port and its certificate"

    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }.prefix(300))
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
