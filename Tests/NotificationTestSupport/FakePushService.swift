import Foundation
import MorningProofStoreContract
import NotificationDelivery
import Synchronization

/// What the fake push service made of one request: the VAPID claims and the decrypted message,
/// or the problems a real push service would have refused it for.
public struct ReceivedPush: Sendable {
    /// The subscriber's name (the endpoint's last path segment).
    public var name: String
    public var request: RecordedRequest
    public var claims: VAPIDToken.Claims?
    public var message: PushMessage?
    /// Empty when the JWT verified, the headers were right and the body decrypted.
    public var problems: [String]
}

/// A push service on 127.0.0.1: endpoints `/push/<name>` for subscribers it made, each request's
/// VAPID JWT checked (ES256 against `k`, `aud` its own origin, `exp` in the future and under 24 h)
/// and its body decrypted for the subscriber the path names. Answers 201 unless told otherwise.
public final class FakePushService: Sendable {
    /// The HTTP side: `answer(_:for:)` and `hang(for:)` take `endpointPath(name)`.
    public let server: RecordingServer
    private let subscribers = Mutex<[String: TestPushSubscriber]>([:])

    private init(server: RecordingServer) { self.server = server }

    /// Starts the service on a free port.
    public static func start() async throws -> FakePushService {
        FakePushService(server: try await RecordingServer.start(defaultStatus: 201))
    }

    /// `http://127.0.0.1:PORT`, which every JWT's `aud` must equal.
    public var origin: String { server.origin }

    /// The path of `name`'s endpoint.
    public static func endpointPath(_ name: String) -> String { "/push/\(name)" }

    /// A new browser subscribed as `name`; its subscription, to store for an account.
    public func subscribe(_ name: String) -> PushSubscription {
        let subscriber = TestPushSubscriber()
        subscribers.withLock { $0[name] = subscriber }
        return subscriber.subscription(endpoint: server.url(Self.endpointPath(name)))
    }

    /// Answers `status` to `name`'s endpoint (201, 410, 500, 302...).
    public func answer(_ status: Int, for name: String) { server.answer(status, for: Self.endpointPath(name)) }

    /// Never answers `name`'s endpoint.
    public func hang(for name: String) { server.hang(for: Self.endpointPath(name)) }

    /// Every push received so far, checked and decrypted.
    public func received(now: Date = Date()) -> [ReceivedPush] {
        let known = subscribers.withLock { $0 }
        return server.requests.map { check($0, subscribers: known, now: now) }
    }

    /// The messages delivered (verified and decrypted), in order.
    public func messages(now: Date = Date()) -> [PushMessage] {
        received(now: now).filter(\.problems.isEmpty).compactMap(\.message)
    }

    public func stop() async { await server.stop() }

    private func check(_ request: RecordedRequest, subscribers: [String: TestPushSubscriber], now: Date) -> ReceivedPush
    {
        let name = String(request.path.split(separator: "/").last ?? "")
        var received = ReceivedPush(name: name, request: request, claims: nil, message: nil, problems: [])
        if request.header("Content-Encoding") != "aes128gcm" {
            received.problems.append("Content-Encoding is not aes128gcm")
        }
        if request.header("TTL").flatMap(Int.init) == nil { received.problems.append("no TTL") }
        switch VAPIDVerifier.verify(authorization: request.header("Authorization") ?? "", audience: origin, now: now) {
        case .success(let claims): received.claims = claims
        case .failure(let problem): received.problems.append("VAPID: \(problem)")
        }
        guard let subscriber = subscribers[name] else {
            received.problems.append("no subscriber \(name)")
            return received
        }
        do {
            received.message = try subscriber.message(request.body)
        } catch {
            received.problems.append("body: \(error)")
        }
        return received
    }
}
