import Foundation
import MorningProofCore
import Testing

@Suite("Locked and ParallelMap")
struct ParallelMapTests {
    @Test("results come back in input order, each item run once")
    func inOrderOnce() {
        let runs = Locked([Int: Int]())
        let items = Array(0..<500)
        let squares = ParallelMap.run(items, workers: 4) { item in
            runs.withLock { $0[item, default: 0] += 1 }
            return item * item
        }
        #expect(squares == items.map { $0 * $0 })
        #expect(runs.withLock { $0.count } == items.count)
        #expect(runs.withLock { $0.values.allSatisfy { $0 == 1 } })
    }

    @Test("items run at the same time: two items that wait for each other both finish")
    func concurrent() {
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        // On one thread this would wait out both timeouts and report false.
        let met = ParallelMap.run([0, 1], workers: 2) { item in
            if item == 0 {
                first.signal()
                return second.wait(timeout: .now() + 10) == .success
            }
            second.signal()
            return first.wait(timeout: .now() + 10) == .success
        }
        #expect(met == [true, true])
    }

    @Test("one worker, an empty list and more workers than items")
    func edges() {
        #expect(ParallelMap.run([1, 2, 3], workers: 1) { $0 + 1 } == [2, 3, 4])
        #expect(ParallelMap.run([Int](), workers: 8) { $0 }.isEmpty)
        #expect(ParallelMap.run([5, 6], workers: 16) { $0 * 2 } == [10, 12])
    }

    @Test("a counter under the lock loses no update across threads")
    func counter() {
        let total = Locked(0)
        _ = ParallelMap.run(Array(0..<4), workers: 4) { _ in
            for _ in 0..<10_000 { total.withLock { $0 += 1 } }
        }
        #expect(total.withLock { $0 } == 40_000)
    }
}
