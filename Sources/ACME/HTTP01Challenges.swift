import MorningProofCore

/// The HTTP-01 challenges the CA is validating now: what the plain http listener answers at
/// `/.well-known/acme-challenge/TOKEN` (RFC 8555 §8.3) while an order is under way.
public final class HTTP01Challenges: Sendable {
    private let answers = Locked<[String: String]>([:])
    private let listening = Locked(false)

    public init() {}

    /// The path prefix the CA asks on.
    public static let pathPrefix = "/.well-known/acme-challenge/"

    /// The key authorization for the request path `path`, or nil when no challenge has that token.
    public func keyAuthorization(forPath path: String) -> String? {
        guard path.hasPrefix(Self.pathPrefix) else { return nil }
        let token = String(path.dropFirst(Self.pathPrefix.count))
        return answers.withLock { $0[token] }
    }

    /// Said by the plain http listener once it accepts connections: no order starts before.
    public func markListening() { listening.withLock { $0 = true } }

    /// Returns once the plain http listener accepts connections (or after a minute, when the CA
    /// will say what it could not reach).
    public func untilListening() async {
        for _ in 0..<1200 where !listening.withLock({ $0 }) {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    func publish(token: String, keyAuthorization: String) {
        answers.withLock { $0[token] = keyAuthorization }
    }

    func withdraw(token: String) {
        answers.withLock { $0[token] = nil }
    }
}
