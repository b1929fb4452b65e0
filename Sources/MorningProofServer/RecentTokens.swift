import Foundation
import MorningProofCore

/// Tokens (by their SHA-256) that this server found valid within the last minute. A route that
/// checks its token again in the same trip as its write (the daily update) gates its body on this
/// instead of asking the database twice: a stranger still gets 401 before any body is read, and a
/// token revoked meanwhile still writes nothing, since the write checks it.
final class RecentTokens: Sendable {
    static let lifetime: TimeInterval = 60
    /// Past this many, the oldest are forgotten: only tokens that were valid ever get in.
    static let capacity = 10_000
    private let seen = Locked<[String: Date]>([:])

    /// Whether `hash` was found valid within `lifetime` before `now`.
    func contains(_ hash: String, now: Date) -> Bool {
        seen.withLock { seen in
            guard let at = seen[hash] else { return false }
            return now.timeIntervalSince(at) < Self.lifetime
        }
    }

    func insert(_ hash: String, now: Date) {
        seen.withLock { seen in
            if seen.count >= Self.capacity {
                seen = seen.filter { now.timeIntervalSince($0.value) < Self.lifetime }
                if seen.count >= Self.capacity { seen.removeAll() }
            }
            seen[hash] = now
        }
    }
}
