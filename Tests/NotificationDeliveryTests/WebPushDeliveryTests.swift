import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

/// Events as the notification pass makes them.
enum SampleEvents {
    static let day = LocalDay(year: 2026, month: 3, day: 8)!

    static let reminder = NotificationEvent(
        event: .reminder, habit: "Make bed", day: day, message: "Make bed is not done yet today.",
        at: "2026-03-08T07:30:00-05:00")
    static let goalMet = NotificationEvent(
        event: .goalMet, habit: "Steps", day: day,
        goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000),
        value: 8412, message: "Steps: 8,412 of 8,000 steps, goal met.", at: "2026-03-08T18:02:11-05:00")
    static let test = NotificationEvent(
        event: .test, habit: "", day: day, message: "Notifications reach this channel.", at: "2026-03-08T09:00:00-05:00"
    )

    /// Generous timeouts by default (30 s to connect, 60 s in all, not the production 5 and 10): in
    /// the full suite, at load average 15 and more, a loopback receiver once took more than 10 s.
    static func sender(
        timeouts: DeliveryTimeouts = DeliveryTimeouts(connect: .seconds(30), total: .seconds(60)),
        clickURL: String? = nil
    ) -> HTTPChannelSender {
        HTTPChannelSender(
            identity: VAPIDKey.newIdentity(contact: "mailto:ops@example.com"), allowLocalTargets: true,
            timeouts: timeouts, clickURL: clickURL)
    }
}

@Suite struct WebPushDeliveryTests {
    @Test func remindersGoalAlertsAndTestsArriveDecryptedWithAValidJWT() async throws {
        let service = try await FakePushService.start()
        let sender = SampleEvents.sender()
        let phone = service.subscribe("phone")
        let laptop = service.subscribe("laptop")
        for event in [SampleEvents.reminder, SampleEvents.goalMet, SampleEvents.test] {
            let results = await sender.deliver(event, to: AccountChannels(pushSubscriptions: [phone, laptop]))
            #expect(results.map(\.outcome) == [.delivered, .delivered])
            #expect(results.map(\.target) == [phone.endpoint, laptop.endpoint])
            #expect(results.allSatisfy { $0.channel == .webPush && $0.status == 201 && $0.error == nil })
        }
        await sender.shutdown()
        let received = service.received()
        await service.stop()
        #expect(received.count == 6)
        for push in received {
            #expect(push.problems == [])
            #expect(push.claims?.aud == service.origin)
            #expect(push.claims?.sub == "mailto:ops@example.com")
            #expect(push.request.header("Content-Type") == "application/octet-stream")
            #expect(push.request.header("Urgency") == "normal")
            #expect(push.request.header("TTL") == "43200")
        }
        let phoneMessages = received.filter { $0.name == "phone" }.compactMap(\.message)
        #expect(
            phoneMessages == [
                PushMessage(
                    title: "Reminder: Make bed", body: "Make bed is not done yet today.", event: "habit.reminder",
                    habit: "Make bed", day: "2026-03-08", url: "/"),
                PushMessage(
                    title: "Goal met: Steps", body: "Steps: 8,412 of 8,000 steps, goal met.", event: "goal.met",
                    habit: "Steps", day: "2026-03-08", url: "/"),
                PushMessage(
                    title: "MorningProof test", body: "Notifications reach this channel.", event: "notification.test",
                    habit: "", day: "2026-03-08", url: "/"),
            ])
    }

    @Test func aGoneSubscriptionIsGoneAndAServerErrorFails() async throws {
        let service = try await FakePushService.start()
        let sender = SampleEvents.sender()
        let subscriptions = ["expired", "unknown", "broken"].map(service.subscribe)
        service.answer(410, for: "expired")
        service.answer(404, for: "unknown")
        service.answer(500, for: "broken")
        let results = await sender.deliver(SampleEvents.reminder, to: AccountChannels(pushSubscriptions: subscriptions))
        await sender.shutdown()
        await service.stop()
        #expect(results.map(\.outcome) == [.gone, .gone, .failed])
        #expect(results.map(\.status) == [410, 404, 500])
        #expect(results[2].error == "answered 500")
    }

    @Test func aHangingEndpointFailsWithinTheTotalTimeout() async throws {
        let service = try await FakePushService.start()
        let sender = SampleEvents.sender(timeouts: DeliveryTimeouts(connect: .seconds(1), total: .seconds(1)))
        let stuck = service.subscribe("stuck")
        service.hang(for: "stuck")
        let started = ContinuousClock.now
        let results = await sender.deliver(SampleEvents.reminder, to: AccountChannels(pushSubscriptions: [stuck]))
        let took = ContinuousClock.now - started
        await sender.shutdown()
        await service.stop()
        #expect(results.map(\.outcome) == [.failed])
        #expect(results.first?.error == "no answer within 1 s")
        // Generous: only "not frozen" (without the timeout the endpoint never answers); a loaded
        // machine running the whole suite took 8.4 s once.
        #expect(took < .seconds(30))
    }

    @Test func aRedirectIsNotFollowed() async throws {
        let service = try await FakePushService.start()
        let sender = SampleEvents.sender()
        let moved = service.subscribe("moved")
        service.answer(302, for: "moved")
        let results = await sender.deliver(SampleEvents.reminder, to: AccountChannels(pushSubscriptions: [moved]))
        await sender.shutdown()
        let paths = service.server.requests.map(\.path)
        await service.stop()
        #expect(results.first?.outcome == .failed)
        #expect(results.first?.error == "redirect not followed (302)")
        #expect(paths == ["/push/moved"])
    }

    @Test func aSubscriptionWithBadKeysFailsClearlyAndSendsNothing() async throws {
        let service = try await FakePushService.start()
        let sender = SampleEvents.sender()
        var shortAuth = service.subscribe("short-auth")
        shortAuth.auth = Base64URL.encode(Data(repeating: 9, count: 8))
        var badKey = service.subscribe("bad-key")
        badKey.p256dh = Base64URL.encode(Data(repeating: 4, count: 33))
        let results = await sender.deliver(
            SampleEvents.reminder, to: AccountChannels(pushSubscriptions: [shortAuth, badKey]))
        await sender.shutdown()
        let requests = service.server.requests
        await service.stop()
        #expect(results.map(\.outcome) == [.failed, .failed])
        #expect(results[0].error == "the subscription's auth secret is not 16 bytes of base64url")
        #expect(results[1].error == "the subscription's p256dh key is not a 65-byte uncompressed P-256 point")
        #expect(requests.isEmpty)
    }
}
