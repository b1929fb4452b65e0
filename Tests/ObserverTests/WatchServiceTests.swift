import Foundation
import Logging
import Observer
import ServiceLifecycle
import Testing

@Suite struct WatchServiceTests {
    final class Passes: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func record() {
            let ready = lock.withLock {
                count += 1
                defer { waiters = [] }
                return waiters
            }
            ready.forEach { $0.resume() }
        }

        var total: Int { lock.withLock { count } }

        func waitForFirst() async {
            await withCheckedContinuation { continuation in
                let done = lock.withLock {
                    if count > 0 { return true }
                    waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }

    @Test func runsAPassAtStartAndStopsOnGracefulShutdown() async throws {
        let passes = Passes()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let service = WatchService(interval: .seconds(3600), clock: ContinuousClock(), logger: logger) {
            passes.record()
        }
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup)],
                logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await passes.waitForFirst()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(passes.total == 1)
    }
}
