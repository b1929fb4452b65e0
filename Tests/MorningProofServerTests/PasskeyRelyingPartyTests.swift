import HTTPTypes
import MorningProofService
import Testing
import WebAuthn

@testable import MorningProofServer

/// The relying party of a passkey ceremony (`PasskeyRelyingParty`): with `--public-url`, its host and
/// origin, and a request from another address refused with a sentence saying where passkeys work;
/// without it, the request's own host, https when TLS, a trusted proxy or the page's Origin says so.
@Suite("Passkeys: which relying party a request is for")
struct PasskeyRelyingPartyTests {
    static let withPublicURL = PasskeyRelyingParty(publicURL: "https://habits.example", servesTLS: false)
    static let direct = RequestOrigin(client: ClientAddress("192.0.2.1"), viaTrustedProxy: false)

    static func proxied(scheme: String?, host: String?) -> RequestOrigin {
        RequestOrigin(client: ClientAddress("192.0.2.1"), viaTrustedProxy: true, scheme: scheme, host: host)
    }

    @Test func withAPublicURLEveryRequestFromItsAddressGetsItsRelyingParty() throws {
        for (authority, page) in [
            ("habits.example", "https://habits.example"), ("habits.example:443", nil), ("HABITS.example", nil),
            // A proxy that sends its upstream's address as Host: the page's Origin is what the browser checks.
            ("127.0.0.1:8080", "https://habits.example"), ("127.0.0.1:8080", "https://habits.example:443"),
        ] as [(String, String?)] {
            let party = try Self.withPublicURL.relyingParty(
                authority: authority, pageOrigin: page, forwarded: Self.direct)
            #expect(
                party.id == "habits.example" && party.origin == "https://habits.example", "\(authority) \(page ?? "")")
        }
        let forwarded = try Self.withPublicURL.relyingParty(
            authority: "127.0.0.1:8080", pageOrigin: nil,
            forwarded: Self.proxied(scheme: "https", host: "habits.example"))
        #expect(forwarded.id == "habits.example")
    }

    @Test func withAPublicURLARequestFromAnotherAddressIsRefusedSayingWhereToGo() throws {
        for (authority, page, named) in [
            ("evil.example", nil, "https://evil.example"), ("habits.example:8443", nil, "https://habits.example:8443"),
            ("habits.example", "http://192.168.1.5:8080", "http://192.168.1.5:8080"),
            ("habits.example", "https://habits.example.evil", "https://habits.example.evil"),
            ("habits.example", "http://habits.example", "http://habits.example"),
        ] as [(String?, String?, String)] {
            let error = #expect(throws: APIError.self) {
                try Self.withPublicURL.relyingParty(authority: authority, pageOrigin: page, forwarded: Self.direct)
            }
            #expect(error?.status == .badRequest && error?.code == "wrong_host", "\(named)")
            #expect(
                error?.message
                    == "passkeys on this server are for https://habits.example (its --public-url), and this request "
                    + "came from \"\(named)\": open MorningProof at https://habits.example to use them",
                "\(error?.message ?? "")")
        }
        let none = #expect(throws: APIError.self) {
            try Self.withPublicURL.relyingParty(authority: nil, pageOrigin: nil, forwarded: Self.direct)
        }
        #expect(none?.message.contains("came from no address") == true, "\(none?.message ?? "")")
    }

    @Test func withoutAPublicURLTheRequestsOwnHostIsTheRelyingParty() throws {
        let plain = PasskeyRelyingParty(publicURL: nil, servesTLS: false)
        let cases: [(String, String?, RequestOrigin, String, String)] = [
            ("localhost:8080", nil, Self.direct, "localhost", "http://localhost:8080"),
            ("Habits.Example", "http://habits.example", Self.direct, "habits.example", "http://habits.example"),
            // A proxy that ends TLS, trusted or not: https as it or the page says.
            (
                "habits.example", nil, Self.proxied(scheme: "https", host: "habits.example"), "habits.example",
                "https://habits.example"
            ),
            ("habits.example", "https://habits.example", Self.direct, "habits.example", "https://habits.example"),
            // Another page's Origin changes nothing.
            ("habits.example", "https://evil.example", Self.direct, "habits.example", "http://habits.example"),
        ]
        for (authority, page, forwarded, id, origin) in cases {
            let party = try plain.relyingParty(authority: authority, pageOrigin: page, forwarded: forwarded)
            #expect(party.id == id && party.origin == origin, "\(authority) \(page ?? ""): \(party.id) \(party.origin)")
        }
        let tls = try PasskeyRelyingParty(publicURL: nil, servesTLS: true)
            .relyingParty(authority: "habits.example:443", pageOrigin: nil, forwarded: Self.direct)
        #expect(tls.origin == "https://habits.example")
        for authority in [nil, "[::1]:8080", "bad host"] as [String?] {
            #expect(throws: APIError.self) {
                try plain.relyingParty(authority: authority, pageOrigin: nil, forwarded: Self.direct)
            }
        }
    }
}
