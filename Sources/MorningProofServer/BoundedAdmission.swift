import MorningProofCore

/// A count of requests let in at once, with a bound: past it a request is refused at once with 503
/// and `Retry-After`, as every bounded queue of the server answers, instead of waiting for a place.
/// With `perAccount`, one account holds at most that many places: its next request is refused
/// with 429 and `Retry-After` without taking a place, so that one account's slow uploads never
/// keep the others out.
struct BoundedAdmission: Sendable {
    /// How many may be in at once.
    let limit: Int
    /// How many one account may hold at once, when it is counted (`run(for:_:)`).
    let perAccount: Int
    /// The answer past `limit`: `busy` unless given.
    let refusal: APIError
    /// The answer to an account past `perAccount`: `ownShareUsed` unless given.
    let ownShareRefusal: APIError
    private let inside = Locked(Places())

    private struct Places {
        var count = 0
        var byAccount: [Int64: Int] = [:]
    }

    init(
        limit: Int, perAccount: Int = .max, refusal: APIError = Self.busy, ownShareRefusal: APIError = Self.ownShareUsed
    ) {
        self.limit = max(0, limit)
        self.perAccount = max(1, perAccount)
        self.refusal = refusal
        self.ownShareRefusal = ownShareRefusal
    }

    /// Runs `body` while counted in: 503 (`refusal`) when `limit` are in already.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await run(for: nil, body)
    }

    /// Runs `body` while counted in for `account`: 503 (`refusal`) when `limit` are in already, 429
    /// (`ownShareRefusal`) when the account holds `perAccount` of them.
    func run<T: Sendable>(for account: Int64?, _ body: () async throws -> T) async throws -> T {
        let refused: APIError? = inside.withLock { places in
            guard places.count < limit else { return refusal }
            if let account {
                guard places.byAccount[account, default: 0] < perAccount else { return ownShareRefusal }
                places.byAccount[account, default: 0] += 1
            }
            places.count += 1
            return nil
        }
        if let refused { throw refused }
        defer {
            inside.withLock { places in
                places.count -= 1
                if let account {
                    let left = places.byAccount[account, default: 1] - 1
                    places.byAccount[account] = left > 0 ? left : nil
                }
            }
        }
        return try await body()
    }

    static let busy = APIError(
        status: .serviceUnavailable, code: "busy", message: "the server is busy with other work; try again shortly",
        headers: [.retryAfter: "2"])

    static let ownShareUsed = APIError(
        status: .tooManyRequests, code: "upload_in_progress",
        message: "this account is already sending an upload; send the next one when that one has ended",
        headers: [.retryAfter: "5"])
}
