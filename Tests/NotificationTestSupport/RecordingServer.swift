import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// One request a fake server received: its path, headers (names lowercased) and body.
public struct RecordedRequest: Sendable {
    public var path: String
    public var headers: [String: String]
    public var body: Data

    /// A header's value by name (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// An HTTP server on 127.0.0.1 (a free port) that records every POST and answers each path with
/// a chosen status (201 unless told), a redirect, or never (until it stops). The fakes build on it.
public final class RecordingServer: Sendable {
    private struct State {
        var requests: [RecordedRequest] = []
        var statuses: [String: Int] = [:]
        var hanging: Set<String> = []
        var endless: Set<String> = []
        var waiting: [CheckedContinuation<Void, Never>] = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, any Error>?>(nil)
    private let group = Mutex<ServiceGroup?>(nil)
    private let defaultStatus: Int
    /// `http://127.0.0.1:PORT`.
    public let origin: String

    private init(defaultStatus: Int, origin: String) {
        self.defaultStatus = defaultStatus
        self.origin = origin
    }

    /// Starts a server answering `defaultStatus` to every POST; `inspect` sees each request first.
    public static func start(defaultStatus: Int = 201) async throws -> RecordingServer {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let box = Mutex<RecordingServer?>(nil)
        let router = Router()
        router.post("**") { request, _ -> Response in
            guard let server = box.withLock({ $0 }) else { return Response(status: .serviceUnavailable) }
            return try await server.answer(request)
        }
        var logger = Logger(label: "fake-server")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            }, logger: logger)
        // Stopped by a graceful shutdown, never by cancelling its task: a cancelled server drops
        // the connections accepted but not yet served, and NIO traps on each (the test process dies).
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw CancellationError()
        }
        let server = RecordingServer(defaultStatus: defaultStatus, origin: "http://127.0.0.1:\(port)")
        box.withLock { $0 = server }
        server.task.withLock { $0 = running }
        server.group.withLock { $0 = group }
        return server
    }

    /// The URL of `path` on this server (`/hook` -> `http://127.0.0.1:PORT/hook`).
    public func url(_ path: String) -> String { origin + (path.hasPrefix("/") ? path : "/" + path) }

    /// Answers `status` to POSTs to `path` from now on (a 3xx carries a Location on this server).
    public func answer(_ status: Int, for path: String) {
        state.withLock { $0.statuses[path] = status }
    }

    /// Never answers POSTs to `path` (until `stop()`).
    public func hang(for path: String) {
        state.withLock { _ = $0.hanging.insert(path) }
    }

    /// Answers POSTs to `path` with 200 and a body that does not end (16 KiB at a time) until the
    /// client hangs up or the server stops.
    public func answerEndlessly(for path: String) {
        state.withLock { _ = $0.endless.insert(path) }
    }

    /// Every request received so far, in order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Stops the server, releasing hanging requests first.
    public func stop() async {
        let waiting = state.withLock { state in
            state.stopped = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
        await group.withLock { $0 }?.triggerGracefulShutdown()
        // A client that never finishes its request would hold the shutdown: after a minute the
        // server's task is cancelled after all.
        let running = task.withLock { $0 }
        await withTaskGroup(of: Void.self) { waits in
            waits.addTask { _ = await running?.result }
            waits.addTask { try? await Task.sleep(for: .seconds(60)) }
            await waits.next()
            running?.cancel()
            waits.cancelAll()
        }
    }

    private func answer(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        // HTTP types carry Host as the :authority pseudo-header.
        if let authority = request.head.authority { headers["host"] = authority }
        let path = request.uri.path
        let (status, hangs, endless) = state.withLock { state in
            state.requests.append(RecordedRequest(path: path, headers: headers, body: Data(body.readableBytesView)))
            return (state.statuses[path] ?? defaultStatus, state.hanging.contains(path), state.endless.contains(path))
        }
        if endless {
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    let chunk = ByteBuffer(repeating: 0x61, count: 16 * 1024)
                    while !self.state.withLock({ $0.stopped }) { try await writer.write(chunk) }
                    try await writer.finish(nil)
                })
        }
        if hangs {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.stopped { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            return Response(status: .serviceUnavailable)
        }
        var fields = HTTPFields()
        if (300..<400).contains(status) { fields[.location] = url("/redirected") }
        return Response(status: HTTPResponse.Status(code: status), headers: fields)
    }
}
