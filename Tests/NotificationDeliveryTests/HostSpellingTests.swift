import Foundation
import NotificationTestSupport
import Synchronization
import Testing

@testable import NotificationDelivery

/// A host written in mixed case, with a trailing dot or as an IDN connects to the address that
/// was checked, never to one resolved again afterwards (issue 38: the pin was keyed by the
/// lower-cased name and the request used the name as written, so the name was resolved again).
@Suite struct HostSpellingTests {
    /// A resolver that answers `address` for every name and records the names it was asked.
    final class Resolver: Sendable {
        let asked = Mutex<[String]>([])
        let address: IPAddress
        init(_ address: IPAddress) { self.address = address }
        func resolve(_ host: String) throws -> [IPAddress] {
            asked.withLock { $0.append(host) }
            return [address]
        }
    }

    static func post(_ url: String, pinnedTo address: IPAddress) async throws -> (PostOutcome, [String]) {
        let resolver = Resolver(address)
        let targets = OutboundTargets(allowLocalTargets: true, resolver: resolver.resolve)
        let target = try await targets.check(url).get()
        let clients = OutboundClients(timeouts: DeliveryTimeouts(connect: .seconds(30), total: .seconds(60)))
        let outcome = await clients.post(to: target, headers: [], body: Data("x".utf8))
        await clients.shutdown()
        return (outcome, resolver.asked.withLock { $0 })
    }

    /// A name no system resolver knows (`.test`), pinned to the receiver: only the pin reaches it,
    /// whatever the spelling, and the check resolves the one normalised name.
    @Test func everySpellingConnectsToTheCheckedAddress() async throws {
        let receiver = try await FakeHookReceiver.start()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        let loopback = try #require(IPAddress("127.0.0.1"))
        let spellings = [
            ("Rebind.test", "rebind.test"), ("rebind.test.", "rebind.test"), ("REBIND.Test.", "rebind.test"),
            ("Ｒｅｂｉｎｄ.test", "rebind.test"), ("Bücher.test", "xn--bcher-kva.test"),
        ]
        for (written, normalised) in spellings {
            let (outcome, asked) = try await Self.post("http://\(written):\(port)/hook", pinnedTo: loopback)
            if case .answered(200) = outcome {} else { Issue.record("\(written): \(outcome)") }
            #expect(asked == [normalised], "\(written)")
        }
        let hosts = receiver.requests.map { $0.header("Host") }
        await receiver.stop()
        #expect(hosts.count == spellings.count)
    }

    /// A name the system resolves to a loopback listener, pinned by the check to another address
    /// (127.0.0.2, where nothing listens on that port): no spelling may reach the listener.
    @Test func noSpellingIsResolvedAgainAfterTheCheck() async throws {
        let receiver = try await FakeHookReceiver.start()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        let checked = try #require(IPAddress("127.0.0.2"))
        for written in ["LocalHost", "localhost.", "LOCALHOST.", "ＬｏｃａｌＨｏｓｔ", "localhost"] {
            let (outcome, asked) = try await Self.post("http://\(written):\(port)/hook", pinnedTo: checked)
            if case .answered = outcome { Issue.record("\(written) was answered: \(outcome)") }
            #expect(asked == ["localhost"], "\(written)")
        }
        let reached = receiver.requests.count
        await receiver.stop()
        #expect(reached == 0, "connections past the check")
    }

    /// A target whose URL spells the host otherwise than the pin is not posted to at all.
    @Test func aURLThatDoesNotSpellThePinnedHostIsNotPosted() async throws {
        let receiver = try await FakeHookReceiver.start()
        let port = try #require(URL(string: receiver.server.origin)?.port)
        let target = OutboundTargets.Target(
            url: try #require(URL(string: "http://LocalHost:\(port)/x")), host: "localhost",
            address: try #require(IPAddress("127.0.0.2")))
        let clients = OutboundClients(timeouts: DeliveryTimeouts(connect: .seconds(30), total: .seconds(60)))
        let outcome = await clients.post(to: target, headers: [], body: Data("x".utf8))
        await clients.shutdown()
        let reached = receiver.requests.count
        await receiver.stop()
        #expect(reached == 0)
        guard case .unanswered("the host name cannot be used") = outcome else {
            Issue.record("posted: \(outcome)")
            return
        }
    }

    /// What the HTTP client is given names the host exactly as the pin does.
    @Test func theRequestURLNamesTheHostAsPinned() async throws {
        let targets = OutboundTargets(
            allowLocalTargets: true, resolver: Resolver(IPAddress(bytes: [127, 0, 0, 1])).resolve)
        for written in ["https://Push.Example.test:8443/a?b=C", "https://push.example.test./a?b=C"] {
            let target = try await targets.check(written).get()
            #expect(target.host == "push.example.test")
            #expect(
                target.url.absoluteString == "https://push.example.test\(written.contains("8443") ? ":8443" : "")/a?b=C"
            )
            #expect(URL(string: target.url.absoluteString)?.host == target.host)
        }
    }
}
