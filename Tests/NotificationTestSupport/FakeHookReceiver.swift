import Crypto
import Foundation

/// A receiver for ntfy topics and webhooks on 127.0.0.1: records each POST's headers and body and
/// checks a webhook's signature the way docs/server.md tells a receiver to.
public final class FakeHookReceiver: Sendable {
    /// The HTTP side: `answer(_:for:)`, `hang(for:)`, `requests`.
    public let server: RecordingServer

    private init(server: RecordingServer) { self.server = server }

    /// Starts the receiver on a free port; it answers 200.
    public static func start() async throws -> FakeHookReceiver {
        FakeHookReceiver(server: try await RecordingServer.start(defaultStatus: 200))
    }

    /// The URL of `path` on the receiver.
    public func url(_ path: String) -> String { server.url(path) }

    /// Every request received so far.
    public var requests: [RecordedRequest] { server.requests }

    /// True when `request` carries `X-MorningProof-Signature: sha256=HEX`, the HMAC-SHA256 of its
    /// body under `secret`, compared in constant time.
    public static func signatureIsValid(_ request: RecordedRequest, secret: String) -> Bool {
        guard let header = request.header("X-MorningProof-Signature"), header.hasPrefix("sha256="),
            let given = hexBytes(header.dropFirst(7))
        else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(
            given, authenticating: request.body, using: SymmetricKey(data: Data(secret.utf8)))
    }

    public func stop() async { await server.stop() }

    private static func hexBytes(_ text: Substring) -> Data? {
        guard text.count % 2 == 0 else { return nil }
        var bytes = Data()
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
