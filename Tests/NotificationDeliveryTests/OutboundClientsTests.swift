import Foundation
import MorningProofStoreContract
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

@Suite struct OutboundClientsTests {
    @Test func aHostNameIsConnectedToAtTheAddressCheckedAndKeepsItsName() async throws {
        let receiver = try await FakeHookReceiver.start()
        let sender = SampleEvents.sender()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        let url = "http://localhost:\(port)/hook"
        let results = await sender.deliver(
            SampleEvents.reminder, to: AccountChannels(webhook: WebhookChannel(url: url, secret: "s")))
        await sender.shutdown()
        let requests = receiver.requests
        await receiver.stop()
        #expect(results.map(\.outcome) == [.delivered])
        #expect(requests.first?.header("Host") == "localhost:\(port)")
    }

    @Test func theConnectionGoesToTheCheckedAddressWithoutResolvingAgain() async throws {
        let receiver = try await FakeHookReceiver.start()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        // A name no resolver knows: only the checked address can reach the receiver.
        let target = OutboundTargets.Target(
            url: try #require(URL(string: "http://push.example.invalid:\(port)/x")), host: "push.example.invalid",
            address: try #require(IPAddress("127.0.0.1")))
        let clients = OutboundClients(timeouts: DeliveryTimeouts(connect: .seconds(30), total: .seconds(60)))
        let outcome = await clients.post(to: target, headers: [], body: Data("x".utf8))
        await clients.shutdown()
        let requests = receiver.requests
        await receiver.stop()
        guard case .answered(200) = outcome else {
            Issue.record("not delivered: \(outcome)")
            return
        }
        #expect(requests.map { $0.header("Host") } == ["push.example.invalid:\(port)"])
    }

    @Test func anAnswersBodyIsReadOnlyUpTo64KiB() async throws {
        let receiver = try await FakeHookReceiver.start()
        receiver.server.answerEndlessly(for: "/chatty")
        let sender = SampleEvents.sender()
        let results = await sender.deliver(
            SampleEvents.test, to: AccountChannels(ntfy: NtfyChannel(url: receiver.url("/chatty"))))
        await sender.shutdown()
        await receiver.stop()
        // Reading the whole body would still be reading when the 10 s are up.
        #expect(results.map(\.outcome) == [.delivered])
        #expect(results.first?.status == 200)
    }

    @Test func aClosedPortFailsWithOneLine() async throws {
        let receiver = try await FakeHookReceiver.start()
        let url = receiver.url("/gone")
        await receiver.stop()
        let sender = SampleEvents.sender(timeouts: DeliveryTimeouts(connect: .seconds(1), total: .seconds(5)))
        let results = await sender.deliver(SampleEvents.test, to: AccountChannels(ntfy: NtfyChannel(url: url)))
        await sender.shutdown()
        let result = try #require(results.first)
        #expect(result.outcome == .failed && result.status == nil)
        #expect(result.error == OutboundClients.notReached, "\(result.error ?? "")")
    }

    /// A refused port and a failed TLS handshake read the same: the answer does not scan ports.
    @Test func whyAServerWasNotReachedIsNotTold() async throws {
        let receiver = try await FakeHookReceiver.start()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        // Generous: a loaded suite once left the handshake unanswered for 5 s ("no answer within 5 s").
        let sender = SampleEvents.sender(timeouts: DeliveryTimeouts(connect: .seconds(30), total: .seconds(60)))
        // https to a plain-http server: the handshake fails.
        let results = await sender.deliver(
            SampleEvents.test, to: AccountChannels(ntfy: NtfyChannel(url: "https://127.0.0.1:\(port)/topic")))
        await sender.shutdown()
        await receiver.stop()
        #expect(results.map(\.error) == [OutboundClients.notReached])
    }

    @Test func clientsBeyondTheCapacityAreClosedAndRemadeWhenNeeded() async throws {
        let receiver = try await FakeHookReceiver.start()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        let targets = OutboundTargets(allowLocalTargets: true)
        let byAddress = try await targets.check("http://127.0.0.1:\(port)/a").get()
        let byName = try await targets.check("http://localhost:\(port)/b").get()
        // Generous bounds: on a machine as busy as CI's (load average 12), one of four posts once went
        // unanswered within the default 10 s. What this test checks is the clients' turnover.
        let clients = OutboundClients(
            timeouts: DeliveryTimeouts(connect: .seconds(30), total: .seconds(60)), capacity: 1)
        var statuses: [String] = []
        for target in [byAddress, byName, byAddress, byName] {
            switch await clients.post(to: target, headers: [], body: Data("x".utf8)) {
            case .answered(let status): statuses.append("\(status)")
            case .unanswered(let why): statuses.append(why)
            }
        }
        await clients.shutdown()
        let after = await clients.post(to: byAddress, headers: [], body: Data())
        await receiver.stop()
        #expect(statuses == ["200", "200", "200", "200"])
        #expect(receiver.requests.map(\.path) == ["/a", "/b", "/a", "/b"])
        guard case .unanswered("delivery is shut down") = after else {
            Issue.record("a post after shutdown: \(after)")
            return
        }
    }
}
