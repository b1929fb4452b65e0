import Foundation

/// Runs work over a list on several threads, with results in input order: the one parallel map.
public enum ParallelMap {
    /// Runs `body` over `items` on at most `workers` plain threads (each with a 4 MB stack, enough for
    /// libjpeg); results come back in input order. Plain threads rather than Dispatch: called from an
    /// async command, `DispatchQueue.concurrentPerform` was seen to run on one core.
    public static func run<T: Sendable, R: Sendable>(
        _ items: [T], workers: Int, _ body: @escaping @Sendable (T) -> R
    ) -> [R] {
        let threads = max(1, min(workers, items.count))
        if threads == 1 {
            return items.map(body)
        }
        let results = Locked([R?](repeating: nil, count: items.count))
        let cursor = Locked(0)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            let thread = Thread {
                while let index = cursor.withLock({ next -> Int? in
                    guard next < items.count else { return nil }
                    next += 1
                    return next - 1
                }) {
                    let value = body(items[index])
                    results.withLock { $0[index] = value }
                }
                finished.signal()
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        for _ in 0..<threads { finished.wait() }
        return results.withLock { values in values.map { $0! } }
    }
}
