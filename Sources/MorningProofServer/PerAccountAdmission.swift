import MorningProofCore

/// A count of one kind of work each account has in at once, with a bound: past it that account's
/// next request is refused at once with 429 and `Retry-After`, while other accounts go on. One
/// account's loop of heavy reads then holds at most `limit` threads, whatever it sends.
struct PerAccountAdmission: Sendable {
    /// How many of one account's may be in at once.
    let limit: Int
    private let inside = Locked<[Int64: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` while counted in for `account`: 429 (`tooMany`) when `limit` of its are in already.
    func run<T: Sendable>(_ account: Int64, _ body: () async throws -> T) async throws -> T {
        let admitted = inside.withLock { counts in
            guard counts[account, default: 0] < limit else { return false }
            counts[account, default: 0] += 1
            return true
        }
        guard admitted else { throw Self.tooMany }
        defer {
            inside.withLock { counts in
                let left = counts[account, default: 1] - 1
                counts[account] = left > 0 ? left : nil
            }
        }
        return try await body()
    }

    /// How many of `account`'s are in now.
    func count(of account: Int64) -> Int { inside.withLock { $0[account, default: 0] } }

    static let tooMany = APIError(
        status: .tooManyRequests, code: "too_many_requests",
        message: "this account's earlier requests of this kind are still being answered; try again shortly",
        headers: [.retryAfter: "1"])
}
