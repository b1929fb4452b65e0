import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Observer
import Testing

/// Stands in for channels of which some never answer: a delivery to an ntfy URL containing
/// "hang" waits until `release()` (at most 1200 s; as an endpoint that accepts and never answers waits for the
/// 10 s timeout); the others are delivered at once, and each arrival is noted with how many hanging
/// deliveries had ended by then.
final class HangingDelivery: ChannelDelivery {
    private let released = Locked(false)
    private let arrivals = Locked([String: Int]())

    private let hangs = Locked(0)
    private let ended = Locked(0)

    func release() { released.withLock { $0 = true } }

    /// Deliveries that have begun to hang so far.
    var hanging: Int { hangs.withLock { $0 } }

    /// How many hanging deliveries had ended when the delivery to `url` arrived, if it did.
    func arrival(_ url: String) -> Int? { arrivals.withLock { $0[url] } }

    func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        guard let ntfy = channels.ntfy else { return [] }
        if ntfy.url.contains("hang") {
            hangs.withLock { $0 += 1 }
            defer { ended.withLock { $0 += 1 } }
            let start = Date()
            while !released.withLock({ $0 }) && Date().timeIntervalSince(start) < 1200 {
                try? await Task.sleep(for: .milliseconds(50))
            }
            return [ChannelResult(channel: .ntfy, target: ntfy.url, outcome: .failed, error: "no answer within 10 s")]
        }
        let endedSoFar = ended.withLock { $0 }
        arrivals.withLock { $0[ntfy.url] = endedSoFar }
        return [ChannelResult(channel: .ntfy, target: ntfy.url, outcome: .delivered, status: 200)]
    }
}

@Suite struct NotificationPassSchedulingTests {
    /// 100 accounts whose endpoint never answers, then one whose endpoint works (the last one the
    /// pass visits): the working one is delivered within seconds, not after the stuck ones' timeouts
    /// (with 32 accounts at a time and a 10 s timeout it used to wait 30 s; here the stuck ones
    /// hang until the working one is delivered, so a pass that waits for them never delivers it).
    @Test(arguments: Engine.available) func aDeadEndpointDoesNotHoldUpTheOthers(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            for n in 0..<100 {
                let person = try await fixture.person("stuck\(n)@example.com", zone: "UTC", channel: false)
                try await person.setChannels(ntfy: NtfyChannel(url: "https://hang.example/\(n)"), webhook: nil)
                _ = try await person.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
            }
            let good = try await fixture.person("good@example.com", zone: "UTC", channel: false)
            try await good.setChannels(ntfy: NtfyChannel(url: "https://ntfy.example/good"), webhook: nil)
            _ = try await good.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = HangingDelivery()
            let pass = NotificationPass(store: fixture.store, account: fixture.account, delivery: delivery)
            let start = Date()
            let running = Task { try await pass.run(at: NotificationPassTests.at("2026-05-04T07:31:00Z")) }
            // The stuck ones hang until the working one is delivered (at most 1200 s): a pass that
            // waits for them never gets to it. What counts is the order, not the time: 7.6 s alone,
            // but in CI's full suite the pass's tasks have waited minutes for a thread.
            while delivery.arrival("https://ntfy.example/good") == nil && Date().timeIntervalSince(start) < 1200 {
                try await Task.sleep(for: .milliseconds(100))
            }
            let endedBeforeIt = delivery.arrival("https://ntfy.example/good")
            delivery.release()
            let report = try await running.value
            #expect(endedBeforeIt == 0, "the working account was not delivered while the stuck ones hung")
            #expect(report.accounts == 101 && report.delivered == 1 && report.failures.count == 100)
        }
    }
}
