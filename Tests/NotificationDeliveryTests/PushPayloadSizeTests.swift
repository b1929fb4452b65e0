import Foundation
import MorningProofCore
import MorningProofService
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

/// Push services refuse bodies over 4,096 bytes: the longest habit name (100 four-byte scalars,
/// in the title, the sentence and the habit field) with a goal's sentence still fits in one record.
@Suite struct PushPayloadSizeTests {
    @Test func theLongestHabitNameWithAGoalSentenceFitsOneRecord() throws {
        for scalar in ["𝄞", "\"", "\\"] {
            let name = String(repeating: scalar, count: UserText.habitNameMaxLength)
            let event = NotificationEvent(
                event: .goalMet, habit: name, day: SampleEvents.day,
                goal: MetricGoal(metric: "activeEnergy", comparison: .atMost, target: 999_999_999),
                value: 999_999_999,
                message: "\(name): 999,999,999 kcal yesterday, goal at most 999,999,999 kcal met.",
                at: "2026-03-08T18:02:11-05:00")
            let subscriber = TestPushSubscriber()
            let json = PushMessage(event).json()
            let body = try WebPushEncryption.encrypt(
                json,
                for: WebPushEncryption.ReceiverKeys(
                    p256dh: subscriber.privateKey.publicKey.x963Representation, auth: subscriber.authSecret))
            #expect(body.count <= 4096, "\(body.count) bytes for a name of \(scalar)")
            #expect(try subscriber.message(body).habit == name)
        }
    }
}
