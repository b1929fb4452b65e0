import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

/// Issue 38, point 10: the sender says an event was taken as soon as the first channel took it,
/// not once the slowest channel has answered, so that the pass marks it delivered at once.
@Suite struct FirstDeliveredTests {
    @Test func theFirstChannelToTakeTheEventIsToldBeforeAHangingOneAnswers() async throws {
        let receiver = try await FakeHookReceiver.start()
        receiver.server.hang(for: "/hook")
        let sender = SampleEvents.sender(timeouts: DeliveryTimeouts(connect: .seconds(60), total: .seconds(120)))
        let channels = AccountChannels(
            ntfy: NtfyChannel(url: receiver.url("/ntfy")),
            webhook: WebhookChannel(url: receiver.url("/hook"), secret: "s"))
        let told = Locked(false)
        let finished = Locked(false)
        let delivering = Task {
            let results = await sender.deliver(
                SampleEvents.reminder, to: channels, firstDelivered: { told.withLock { $0 = true } })
            finished.withLock { $0 = true }
            return results
        }
        let start = Date()
        while !told.withLock({ $0 }) && Date().timeIntervalSince(start) < 60 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let toldWhileHanging = told.withLock { $0 } && !finished.withLock { $0 }
        await receiver.stop()
        let results = await delivering.value
        await sender.shutdown()
        #expect(toldWhileHanging, "firstDelivered came only after every channel answered")
        #expect(results.map(\.outcome) == [.delivered, .failed])
    }
}
