import Foundation
import MorningProofService
import MorningProofStoreContract
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

@Suite struct HookDeliveryTests {
    @Test func ntfyGetsTheSentenceWithTitleTagsClickAndToken() async throws {
        let receiver = try await FakeHookReceiver.start()
        let sender = SampleEvents.sender(clickURL: "https://proof.example.net/")
        let withToken = NtfyChannel(url: receiver.url("/morning"), token: "tk_secret123")
        for event in [SampleEvents.goalMet, SampleEvents.reminder, SampleEvents.test] {
            let results = await sender.deliver(event, to: AccountChannels(ntfy: withToken))
            #expect(results == [ChannelResult(channel: .ntfy, target: withToken.url, outcome: .delivered, status: 200)])
        }
        _ = await sender.deliver(
            SampleEvents.reminder, to: AccountChannels(ntfy: NtfyChannel(url: receiver.url("/open"))))
        await sender.shutdown()
        let requests = receiver.requests
        await receiver.stop()
        try #require(requests.count == 4)
        #expect(
            requests.map { $0.header("Title") } == [
                "Goal met: Steps", "Reminder: Make bed", "MorningProof test", "Reminder: Make bed",
            ])
        #expect(requests.map { $0.header("Tags") } == ["white_check_mark", "alarm_clock", "test_tube", "alarm_clock"])
        #expect(requests.allSatisfy { $0.header("Click") == "https://proof.example.net/" })
        #expect(requests.prefix(3).allSatisfy { $0.header("Authorization") == "Bearer tk_secret123" })
        #expect(requests[3].header("Authorization") == nil)
        #expect(String(decoding: requests[0].body, as: UTF8.self) == SampleEvents.goalMet.message)
    }

    @Test func aTitleIsOneLineAndNonASCIIIsEncodedForHeaders() {
        #expect(HeaderText.encoded("Reminder: Make bed") == "Reminder: Make bed")
        #expect(HeaderText.encoded("Reminder: x\r\nX-Injected: 1") == "Reminder: x  X-Injected: 1")
        let encoded = HeaderText.encoded("Reminder: Yatağı topla")
        #expect(encoded == "=?UTF-8?B?\(Data("Reminder: Yatağı topla".utf8).base64EncodedString())?=")
        #expect(!encoded.contains("\r") && !encoded.contains("\n"))
        #expect(HeaderText.singleLine("tk_abc\r\nX: y") == nil)
    }

    @Test func aWebhookGetsTheEventJSONSignedWithItsSecret() async throws {
        let receiver = try await FakeHookReceiver.start()
        let sender = SampleEvents.sender()
        let hook = WebhookChannel(url: receiver.url("/hook"), secret: "whsec_0123456789")
        let results = await sender.deliver(SampleEvents.goalMet, to: AccountChannels(webhook: hook))
        await sender.shutdown()
        let requests = receiver.requests
        await receiver.stop()
        #expect(results.map(\.outcome) == [.delivered])
        let request = try #require(requests.first)
        #expect(String(decoding: request.body, as: UTF8.self) == SampleEvents.goalMet.json())
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("X-MorningProof-Event") == "goal.met")
        #expect(FakeHookReceiver.signatureIsValid(request, secret: "whsec_0123456789"))
        #expect(!FakeHookReceiver.signatureIsValid(request, secret: "whsec_other"))
        // A known value, so that a receiver in any language can check its code against it.
        #expect(
            WebhookRequest.signature(of: Data("{}".utf8), secret: "key")
                == "sha256=a777724d943eb48dc69bca8a4a6d57a04db3f9ec7e1de4e581e860265bdf3032")
    }

    @Test func everyChannelOfAnAccountGetsOneResultEach() async throws {
        let receiver = try await FakeHookReceiver.start()
        let service = try await FakePushService.start()
        let sender = SampleEvents.sender()
        receiver.server.answer(500, for: "/hook")
        let channels = AccountChannels(
            pushSubscriptions: [service.subscribe("phone")], ntfy: NtfyChannel(url: receiver.url("/topic")),
            webhook: WebhookChannel(url: receiver.url("/hook"), secret: "s3cret-value"))
        let results = await sender.deliver(SampleEvents.reminder, to: channels)
        await sender.shutdown()
        await receiver.stop()
        await service.stop()
        #expect(results.map(\.channel) == [.webPush, .ntfy, .webhook])
        #expect(results.map(\.outcome) == [.delivered, .delivered, .failed])
        #expect(results.allSatisfy { !($0.error ?? "").contains("s3cret-value") })
    }
}
