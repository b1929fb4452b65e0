import Foundation
import Logging
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
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

/// Collects log records, to see what `watch` says at which level.
private struct RecordingLog: LogHandler {
    let records = Locked([(Logger.Level, String)]())
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        records.withLock { $0.append((event.level, "\(event.message)")) }
    }
}

@Suite("Watch passes")
struct WatchPassesTests {
    @Test("a file that stays bad is warned about once, then only at debug level; a new problem warns again")
    func badFileWarnsOnce() async throws {
        let database = try AppDatabase.inMemory()
        let missing = "/nonexistent-\(UUID().uuidString)/steps.csv"
        _ = try await database.addMetricSource(missing)
        let log = RecordingLog()
        let passes = WatchPasses(database: database, startingAt: Date(), logger: Logger(label: "test") { _ in log }) {
            _ in
        }
        await passes.run()
        await passes.run()
        let about = log.records.withLock { $0 }.filter { $0.1.contains(missing) }
        #expect(about.map(\.0) == [.warning, .debug])
        let other = "/nonexistent-\(UUID().uuidString)/sleep.csv"
        _ = try await database.addMetricSource(other)
        await passes.run()
        let warnings = log.records.withLock { $0 }.filter { $0.0 == .warning }.map(\.1)
        #expect(warnings.count == 2)
        #expect(warnings.last?.contains(other) == true)
    }
}
