import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

@testable import MorningProofServer

/// CPU-heavy work (photo decoding, bcrypt) runs on a pool of its own with a bounded queue, so that
/// one account's heavy requests leave other accounts' reads fast. These measure latency, so they
/// run alone (`scripts/test` runs them after the suite, with MORNINGPROOF_LATENCY_TESTS=1): beside
/// the rest of the suite, other tests' servers share the machine's two cores and NIO's thread pool.
@Suite(
    "The CPU pool: heavy work apart from other accounts' reads",
    .enabled(
        if: ProcessInfo.processInfo.environment["MORNINGPROOF_LATENCY_TESTS"] == "1",
        "latency tests run alone: MORNINGPROOF_LATENCY_TESTS=1 swift test --filter CPUIsolationTests"))
struct CPUIsolationTests {
    /// Samples another account's `GET /api/habits` while `load` runs; its latencies in seconds.
    func sampleHabits(_ api: TestAPI, token: String, while load: @escaping @Sendable () async throws -> Void)
        async throws -> [Double]
    {
        let done = Locked(false)
        let running = Task {
            defer { done.withLock { $0 = true } }
            try await load()
        }
        var latencies: [Double] = []
        // The first samples come while every heavy request is in flight.
        while latencies.count < 400 {
            let start = DispatchTime.now().uptimeNanoseconds
            let reply = try await api.send(.get, "/api/habits", token: token)
            #expect(reply.status == .ok)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            try await Task.sleep(for: .milliseconds(10))
            if latencies.count >= 20, done.withLock({ $0 }) { break }
        }
        try await running.value
        return latencies
    }

    static func p99(_ latencies: [Double]) -> Double {
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
    }

    /// Eight 49-megapixel PNG proofs at once (from eight accounts: one account holds only its share
    /// of the photo places): another account's habit list stays fast (p99 under 200 ms; before the
    /// pool, 30 s).
    @Test func eightLargeProofsLeaveAnotherAccountsReadsFast() async throws {
        let png = FlatPNG.make(width: 7_000, height: 7_000)
        #expect(png.count < BodyLimit.photo.bytes)
        try await TestServer.with(.sqlite) { server in
            var server = server
            server.configuration.signInLimits.signUpsPerAddress = 100
            try await server.run { api in try await eightLargeProofs(api, png: png) }
        }
    }

    private func eightLargeProofs(_ api: TestAPI, png: Data) async throws {
        var senders: [(token: String, path: String)] = []
        for n in 0..<8 {
            let heavy = try await api.signUp("heavy\(n)@example.com", timezone: "UTC")
            let created = try await api.send(
                .post, "/api/habits", token: heavy, at: "2026-11-17T07:00:00Z",
                json: #"{"name": "Make bed", "kind": "photo"}"#)
            senders.append((heavy, "/api/habits/\(try #require(created.json["id"] as? Int))/proof"))
        }
        let other = try await api.signUp("other@example.com", timezone: "UTC")
        for name in ["Read", "Run", "Stretch"] {
            _ = try await api.send(.post, "/api/habits", token: other, json: "{\"name\": \"\(name)\"}")
        }
        let statuses = Locked([HTTPResponse.Status]())
        let sent = senders
        let latencies = try await sampleHabits(api, token: other) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (heavy, path) in sent {
                    group.addTask {
                        var headers: HTTPFields = [.authorization: "Bearer \(heavy)", .contentType: "image/png"]
                        headers[HTTPField.Name("X-MorningProof-Now")!] = "2026-11-18T08:00:00Z"
                        let status = try await api.client.execute(
                            uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: png)
                        ) { $0.status }
                        statuses.withLock { $0.append(status) }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Every photo was decoded and judged (a flat grey picture is no made bed, or is refused).
        #expect(
            statuses.withLock { $0 }.allSatisfy {
                [.ok, .created, .unprocessableContent, .badRequest].contains($0)
            })
        let p99 = Self.p99(latencies)
        print(
            "CPU pool: 8 proofs of 49 MP; other account's GET /api/habits: \(latencies.count) samples, p99 \(Int(p99 * 1000)) ms, max \(Int((latencies.max() ?? 0) * 1000)) ms"
        )
        #expect(p99 < 0.2, "p99 \(p99) s over \(latencies.count) samples")
    }

    /// Forty sign-ups at once (bcrypt at cost 10): another account's habit list stays fast.
    @Test func fortySignUpsLeaveAnotherAccountsReadsFast() async throws {
        try await TestServer.with(.sqlite) { server in
            var server = server
            server.configuration.bcryptCost = 10
            server.configuration.cpuQueueLimit = 64
            server.configuration.passwordQueueLimit = 64
            server.configuration.signInLimits.signUpsPerAddress = 100
            try await server.run { api in
                let other = try await api.signUp("other@example.com", timezone: "UTC")
                let statuses = Locked([HTTPResponse.Status]())
                let latencies = try await sampleHabits(api, token: other) {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for n in 0..<40 {
                            group.addTask {
                                let reply = try await api.send(
                                    .post, "/api/auth/signup",
                                    json: "{\"email\": \"user\(n)@example.com\", \"password\": \"correct horse\"}")
                                statuses.withLock { $0.append(reply.status) }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                #expect(statuses.withLock { $0 }.allSatisfy { $0 == .created })
                let p99 = Self.p99(latencies)
                print(
                    "CPU pool: 40 sign-ups at bcrypt cost 10; other account's GET /api/habits: \(latencies.count) samples, p99 \(Int(p99 * 1000)) ms, max \(Int((latencies.max() ?? 0) * 1000)) ms"
                )
                #expect(p99 < 0.2, "p99 \(p99) s over \(latencies.count) samples")
            }
        }
    }

}

/// The CPU pool's bounded queue.
@Suite struct CPUWorkPoolTests {
    /// Past its threads and queue, the pool refuses at once: 503 with `Retry-After`.
    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let pool = CPUWorkPool(threads: 1, queueLimit: 1)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let running = Task {
            try await pool.run {
                started.signal(); release.wait(); return 1
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        let waiting = Task { try await pool.run { 2 } }
        try await Task.sleep(for: .milliseconds(50))
        do {
            _ = try await pool.run { 3 }
            Issue.record("a third piece of work was admitted")
        } catch let error as APIError {
            #expect(error.status == .serviceUnavailable)
            #expect(error.response.headers[.retryAfter] == "2")
            #expect(error.response.status == .serviceUnavailable)
        }
        release.signal()
        #expect(try await running.value == 1)
        #expect(try await waiting.value == 2)
        #expect(try await pool.run { 4 } == 4)
    }
}
