import MorningProofCore

/// A count of requests let in at once, with a bound: past it a request is refused at once with 503
/// and `Retry-After`, as every bounded queue of the server answers, instead of waiting for a place.
struct BoundedAdmission: Sendable {
    /// How many may be in at once.
    let limit: Int
    private let inside = Locked(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Runs `body` while counted in: 503 (`busy`) when `limit` are in already.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let admitted = inside.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Self.busy }
        defer { inside.withLock { $0 -= 1 } }
        return try await body()
    }

    static let busy = APIError(
        status: .serviceUnavailable, code: "busy", message: "the server is busy with other work; try again shortly",
        headers: [.retryAfter: "2"])
}
