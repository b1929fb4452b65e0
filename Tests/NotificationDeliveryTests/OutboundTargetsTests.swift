import Foundation
import MorningProofStoreContract
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

@Suite struct OutboundTargetsTests {
    let strict = OutboundTargets()

    func refusal(_ url: String, _ targets: OutboundTargets = OutboundTargets()) async -> String? {
        switch await targets.check(url) {
        case .success: nil
        case .failure(let refusal): refusal.description
        }
    }

    @Test func httpIsRefusedUnlessLocalTargetsAreAllowed() async {
        #expect(await refusal("http://push.example.net/x") == "http is refused: notifications go only to https URLs")
        #expect(await refusal("ftp://push.example.net/x") == "ftp: is no https URL")
        #expect(await refusal("http://127.0.0.1:9/x", OutboundTargets(allowLocalTargets: true)) == nil)
    }

    @Test func localAndPrivateAddressesAreRefused() async {
        let cases = [
            ("https://127.0.0.1/", "127.0.0.1 is a loopback address; notifications go only to public addresses"),
            ("https://[::1]/", "::1 is a loopback address; notifications go only to public addresses"),
            (
                "https://[::ffff:127.0.0.1]/",
                "::ffff:127.0.0.1 is a loopback address (IPv4 127.0.0.1 inside IPv6); notifications go only to public addresses"
            ),
            (
                "https://169.254.169.254/",
                "169.254.169.254 is the cloud metadata address; notifications go only to public addresses"
            ),
            ("https://10.1.2.3/", "10.1.2.3 is a private address; notifications go only to public addresses"),
        ]
        for (url, expected) in cases {
            #expect(await refusal(url) == expected, "\(url)")
        }
        // A name is refused without telling what it resolves to.
        #expect(
            await refusal("https://localhost/")
                == "localhost is not reachable from the internet: check the name (notifications go only to public addresses)"
        )
        // A decimal IPv4 literal is resolved by getaddrinfo to 127.0.0.1, and refused as that.
        #expect(await refusal("https://2130706433/")?.contains("a loopback address") == true)
        #expect(
            await refusal("https://user:pw@push.example.net/")
                == "push.example.net: a user name or password in the URL is refused")
    }

    @Test func whatNeedsNoDNSIsCheckedBeforeAURLIsStored() {
        #expect(strict.refusalBeforeResolving("https://ntfy.sh/morning") == nil)
        #expect(strict.refusalBeforeResolving("https://8.8.8.8/hook") == nil)
        #expect(
            strict.refusalBeforeResolving("http://ntfy.sh/morning")?.description.hasPrefix("http is refused") == true)
        #expect(strict.refusalBeforeResolving("https://[fd00::1]/")?.description.contains("unique local") == true)
        #expect(strict.refusalBeforeResolving("no url at all")?.description == "not a URL")
        #expect(OutboundTargets(allowLocalTargets: true).refusalBeforeResolving("http://127.0.0.1:8080/hook") == nil)
    }

    @Test func publicAddressesPassAndAreWhatTheConnectionUses() async throws {
        let target = try await strict.check("https://93.184.215.14:8443/topic").get()
        #expect(target.address == IPAddress("93.184.215.14"))
        #expect(target.host == "93.184.215.14")
        let v6 = try await strict.check("https://[2606:4700:4700::1111]/").get()
        #expect(v6.host == "2606:4700:4700::1111")
    }

    @Test func theAddressRulesCoverTheReservedRanges() throws {
        let refused = [
            "0.1.2.3", "10.255.0.1", "100.64.0.1", "100.127.255.254", "127.8.8.8", "169.254.1.1", "172.16.0.1",
            "172.31.255.255", "192.0.0.8", "192.168.1.1", "198.18.0.1", "198.19.255.255", "224.0.0.1",
            "240.0.0.1", "255.255.255.255", "::", "::1", "fe80::1", "febf::1", "fc00::1", "fd00:ec2::254",
            "ff02::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a00:1", "64:ff9b::7f00:1",
            "2002:a00:1::", "2002:7f00:1::", "64:ff9b:1::1",
        ]
        for text in refused {
            let address = try #require(IPAddress(text), "\(text)")
            #expect(address.refusal != nil, "\(text) must be refused")
        }
        #expect(IPAddress("fd00:ec2::254")?.refusal == "the cloud metadata address")
        let allowed = [
            "1.1.1.1", "100.128.0.1", "172.32.0.1", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
            "2002:808:808::",
        ]
        for text in allowed {
            let address = try #require(IPAddress(text), "\(text)")
            #expect(address.refusal == nil, "\(text) must pass")
        }
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("::ffff:127.0.0.1")?.description == "::ffff:127.0.0.1")
    }

    @Test func aRefusedTargetIsAFailedResultThatNamesNoSecret() async throws {
        let sender = HTTPChannelSender(identity: VAPIDKey.newIdentity(contact: "mailto:ops@example.com"))
        let channels = AccountChannels(
            pushSubscriptions: [TestPushSubscriber().subscription(endpoint: "https://10.1.2.3/push/a")],
            ntfy: NtfyChannel(url: "http://ntfy.example.net/topic", token: "tk_secret"),
            webhook: WebhookChannel(url: "https://127.0.0.1/hook", secret: "whsec_secret"))
        let results = await sender.deliver(SampleEvents.reminder, to: channels)
        await sender.shutdown()
        #expect(results.map(\.outcome) == [.failed, .failed, .failed])
        #expect(results[0].error == "10.1.2.3 is a private address; notifications go only to public addresses")
        #expect(results[1].error == "http is refused: notifications go only to https URLs")
        for result in results {
            #expect(result.status == nil)
            #expect(!(result.error ?? "").contains("secret"))
        }
    }
}

@Suite struct OutboundTargetFormsTests {
    /// IPv4 in the forms inet_aton reads, an IPv6-mapped one in hex, a zone id: refused before
    /// they are stored (they used to pass, and were refused only once resolved), and after DNS.
    @Test func oddAddressFormsAreRefusedBeforeAndAfterResolving() async {
        let strict = OutboundTargets()
        for url in [
            "https://127.1/", "https://0x7f.1/", "https://017700000001/", "https://2130706433/",
            "https://0x7f000001/", "https://[::ffff:7f00:1]/", "https://0/", "https://10.1/",
            "https://[fe80::1%25lo]/", "https://[2001:4860::8888%25eth0]/",
        ] {
            #expect(strict.refusalBeforeResolving(url) != nil, "\(url)")
            if case .success = await strict.check(url) { Issue.record("\(url) passed the check") }
        }
        for url in ["https://localhost./", "https://LOCALHOST/"] {
            if case .success = await strict.check(url) { Issue.record("\(url) passed the check") }
        }
        // Names that merely look numeric-ish stay names.
        #expect(strict.refusalBeforeResolving("https://cafe.example/") == nil)
        #expect(strict.refusalBeforeResolving("https://1.example/") == nil)
    }
}

/// What DNS answered stays on the server: a name resolving to a private address and a name that
/// does not resolve are refused in the same words, naming no address (issue 38).
@Suite struct ResolvedAddressSecrecyTests {
    @Test func aRefusalNamesNoResolvedAddress() async throws {
        let corporate = OutboundTargets(
            allowLocalTargets: false, resolver: { _ in [IPAddress(bytes: [10, 1, 2, 3])] })
        let unknown = OutboundTargets(
            allowLocalTargets: false, resolver: { _ in throw CancellationError() })
        var answers: [String] = []
        for targets in [corporate, unknown] {
            guard case .failure(let refusal) = await targets.check("https://internal-db.corp:5432/x") else {
                Issue.record("internal-db.corp passed the check")
                continue
            }
            answers.append(refusal.description)
            #expect(refusal.detail?.contains("internal-db.corp") == true)
        }
        #expect(
            answers
                == Array(
                    repeating:
                        "internal-db.corp is not reachable from the internet: check the name (notifications go only to public addresses)",
                    count: 2))
        #expect(!answers.joined().contains("10.1.2.3") && !answers.joined().contains("5432"))
        if case .failure(let refusal) = await corporate.check("https://internal-db.corp/") {
            #expect(refusal.detail == "internal-db.corp resolves to 10.1.2.3, a private address")
        }
        // An address the person wrote may be named.
        #expect(
            corporate.refusalBeforeResolving("https://10.0.0.1/x")?.description
                == "10.0.0.1 is a private address; notifications go only to public addresses")
    }
}
