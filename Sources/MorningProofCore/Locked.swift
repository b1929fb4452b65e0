import Synchronization

/// A value shared between threads and reached only under its lock: the one lock helper, in place of
/// hand-made `@unchecked Sendable` boxes around an `NSLock`.
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, holding the lock; keep it short and never call back into the owner.
    public func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}
