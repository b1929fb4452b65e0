import HTTPTypes
import MorningProofCore
import MorningProofService
import Testing

@testable import MorningProofServer

/// Who sent a request behind a proxy (issue 37, "Behind a reverse proxy"): RFC 7239 and
/// X-Forwarded-For read only from a trusted peer, the right-most hop that is not a proxy, and
/// anything unreadable falling back to the peer.
@Suite("Forwarded headers and trusted proxies")
struct ForwardedHeadersTests {
    let proxies: TrustedProxies
    let proxy = ClientAddress("10.1.2.3")!

    init() throws {
        proxies = try TrustedProxies(list: "127.0.0.1/32, 10.0.0.0/8 fd00::/8")
    }

    private func client(
        _ fields: [(String, String)], peer: String = "10.1.2.3", authority: String? = nil
    ) -> RequestOrigin {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return proxies.origin(peer: ClientAddress(peer), headers: headers, authority: authority)
    }

    @Test func rfc7239FormsNameTheClient() {
        let forms: [(String, String?)] = [
            ("for=192.0.2.60;proto=http;by=203.0.113.43", "192.0.2.60"),
            ("For=\"192.0.2.60:4711\"", "192.0.2.60"),
            ("for=\"[2001:db8:cafe::17]\"", "2001:db8:cafe::17"),
            ("for=\"[2001:db8:cafe::17]:4711\"", "2001:db8:cafe::17"),
            ("for=192.0.2.43, for=198.51.100.17", "198.51.100.17"),
            ("for=192.0.2.43, for=10.0.0.9", "192.0.2.43"),  // the proxy's own hop is skipped
            ("for=192.0.2.43;proto=https , for=\"[fd00::5]:80\"", "192.0.2.43"),
            ("for=_hidden, for=198.51.100.17", "198.51.100.17"),
            // Unreadable: the peer.
            ("for=unknown", "10.1.2.3"),
            ("for=_hidden", "10.1.2.3"),
            ("for=2001:db8::1", "10.1.2.3"),  // IPv6 must be quoted and bracketed
            ("for=\"[2001:db8::1\"", "10.1.2.3"),
            ("for=192.0.2.1;for=192.0.2.2", "10.1.2.3"),  // a parameter twice
            ("for=\"192.0.2.1", "10.1.2.3"),
            ("for=192.0.2.1,", "10.1.2.3"),
            ("garbage", "10.1.2.3"),
            ("", "10.1.2.3"),
        ]
        for (header, expected) in forms {
            #expect(client([("Forwarded", header)]).client?.description == expected, "\(header)")
        }
    }

    @Test func xForwardedForTakesTheRightMostHopThatIsNotAProxy() {
        let chains: [(String, String)] = [
            ("203.0.113.9", "203.0.113.9"),
            ("1.2.3.4, 203.0.113.9", "203.0.113.9"),  // a client's spoofed entry is left of the real one
            ("1.2.3.4, 203.0.113.9, 10.0.0.2", "203.0.113.9"),
            ("203.0.113.9:5555", "203.0.113.9"),
            ("[2001:db8::7]:443", "2001:db8::7"),
            ("2001:db8::7", "2001:db8::7"),
            ("::ffff:203.0.113.9", "203.0.113.9"),
            ("10.0.0.5, 127.0.0.1", "10.0.0.5"),  // every hop a proxy: the first
            ("1.2.3.4, not-an-address", "10.1.2.3"),
            ("1.2.3.4,,", "10.1.2.3"),
            (String(repeating: "1.2.3.4, ", count: 500) + "nonsense", "10.1.2.3"),
        ]
        for (header, expected) in chains {
            #expect(client([("X-Forwarded-For", header)]).client?.description == expected, "\(header)")
        }
        // Several header lines are one list.
        #expect(
            client([("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-For", "203.0.113.9")]).client?.description
                == "203.0.113.9")
        // X-Forwarded-For, which nginx sets, wins over a Forwarded header it passes on from the client.
        #expect(
            client([("Forwarded", "for=9.9.9.9"), ("X-Forwarded-For", "203.0.113.9")]).client?.description
                == "203.0.113.9")
    }

    @Test func anUntrustedPeerIsTheClientWhateverItsHeadersSay() {
        let spoof = [
            ("X-Forwarded-For", "1.2.3.4"), ("Forwarded", "for=1.2.3.4;proto=https;host=evil.test"),
            ("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "evil.test"),
        ]
        let origin = client(spoof, peer: "192.0.2.77")
        #expect(origin == RequestOrigin(client: ClientAddress("192.0.2.77"), viaTrustedProxy: false))
        #expect(client(spoof, peer: "2001:db8::1").client?.description == "2001:db8::1")
        #expect(TrustedProxies().origin(peer: proxy, headers: [:]).viaTrustedProxy == false)
    }

    @Test func theSchemeAndHostComeFromATrustedProxy() {
        let nginx = client(
            [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "https")], authority: "proof.example.net")
        #expect(nginx.scheme == "https" && nginx.publicURL == "https://proof.example.net")
        let rfc = client([("Forwarded", "for=203.0.113.9;proto=HTTPS;host=\"proof.example.net:8443\"")])
        #expect(rfc.scheme == "https" && rfc.host == "proof.example.net:8443")
        #expect(client([("X-Forwarded-Proto", "gopher")]).scheme == nil)
        #expect(client([("X-Forwarded-Host", "a b/c")], authority: "ok.test").host == nil)
    }

    @Test func rangesReadCIDRsAndBareAddresses() throws {
        #expect(try AddressRange("127.0.0.1").description == "127.0.0.1/32")
        #expect(try AddressRange("2001:db8::1").description == "2001:db8::1/128")
        let v6 = try AddressRange("2001:db8:1::/48")
        #expect(v6.contains(ClientAddress("2001:db8:1:ffff::1")!) && !v6.contains(ClientAddress("2001:db8:2::1")!))
        #expect(try AddressRange("0.0.0.0/0").contains(ClientAddress("::ffff:8.8.8.8")!))
        #expect(!(try AddressRange("0.0.0.0/0")).contains(ClientAddress("::1")!))
        for bad in [
            "", "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0/8", "example.com", "10.0.0.0/-1", "::1%lo/128",
        ] {
            #expect(throws: MorningProofError.self, "\(bad)") { try AddressRange(bad) }
        }
        #expect(try TrustedProxies(list: " 10.0.0.1,,fd00::/8  127.0.0.1 ").ranges.count == 3)
    }

    @Test func ipv6CountsByItsSlash64() {
        #expect(ClientAddress("2001:db8::1")!.person == "2001:db8::/64")
        #expect(ClientAddress("2001:db8::ffff:1")!.person == ClientAddress("2001:db8::2")!.person)
        #expect(ClientAddress("2001:db8:0:1::1")!.person == "2001:db8:0:1::/64")
        #expect(ClientAddress("192.0.2.1")!.person == "192.0.2.1")
        #expect(ClientAddress("fe80::1%eth0")!.person == "fe80::/64")
        #expect(ClientAddress.person(of: "unknown") == "unknown")
        let connections = OpenConnections(perAddress: 2)
        #expect(connections.open(from: "2001:db8::1") && connections.open(from: "2001:db8::2"))
        #expect(!connections.open(from: "2001:db8::3"))
        #expect(connections.open(from: "2001:db8:0:1::1"))
        #expect(connections.count(from: "2001:db8::99") == 3)
    }

    @Test func aTrustedProxyIsNotCappedPerAddress() {
        let connections = OpenConnections(perAddress: 1, trusted: proxies)
        #expect((0..<5).allSatisfy { _ in connections.open(from: "127.0.0.1") })
        #expect(connections.open(from: "127.0.0.2") && !connections.open(from: "127.0.0.2"))
    }
}
