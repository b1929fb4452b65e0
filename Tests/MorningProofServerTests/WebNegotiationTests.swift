import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

/// The web files' gzip and revalidation as odd clients ask for them: a coding refused by name beside
/// `*`, the header sent on several lines, odd weights, and a tag a proxy weakened.
@Suite struct WebNegotiationTests {
    static func fields(_ lines: [(HTTPField.Name, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in lines { fields.append(HTTPField(name: name, value: value)) }
        return fields
    }

    @Test func gzipIsSentOnlyWhereEveryAcceptEncodingLineTakenTogetherAcceptsIt() async throws {
        try await TestServer.run(on: .sqlite) { api in
            let cases: [([String], Bool)] = [
                (["gzip"], true), (["GZIP"], true), (["x-gzip"], true), (["*"], true), (["br;q=1, gzip;q=0.001"], true),
                (["gzip;q=0.000"], false), (["gzip ; Q=0"], false), (["*;q=0"], false), (["identity"], false),
                // Named with q=0, gzip is refused whatever `*` says (RFC 9110 §12.5.3); these sent gzip.
                (["gzip;q=0, *"], false), (["*, gzip;q=0"], false), (["*;q=1, x-gzip;q=0"], false),
                // Several lines are one list: the refusal on the second line counts.
                (["*", "gzip;q=0"], false), (["identity", "gzip"], true),
                // A weight that is no number is no acceptance.
                (["gzip;q=nan"], false), (["gzip;q=abc"], false),
                ([Array(repeating: "br", count: 2_000).joined(separator: ",") + ",gzip"], true),
            ]
            for (lines, gzipped) in cases {
                let reply = try await api.send(
                    .get, "/app.js", headers: Self.fields(lines.map { (.acceptEncoding, $0) }))
                #expect(reply.status == .ok, "\(lines)")
                #expect((reply.headers[.contentEncoding] == "gzip") == gzipped, "\(lines)")
                #expect(reply.headers[.eTag]?.hasSuffix("-gzip\"") == gzipped, "\(lines)")
            }
        }
    }

    @Test func aWeakenedTagRevalidatesAndTheOtherRepresentationsTagDoesNot() async throws {
        try await TestServer.run(on: .sqlite) { api in
            let zipped = try await api.send(.get, "/app.js", headers: [.acceptEncoding: "gzip"])
            let tag = try #require(zipped.headers[.eTag])
            // A proxy that weakened the tag (nginx does when it compresses) sends it back as W/"…".
            let weak = try await api.send(
                .get, "/app.js", headers: [.acceptEncoding: "gzip", .ifNoneMatch: "W/\(tag)"])
            #expect(weak.status == .notModified)
            // On a second If-None-Match line, still matched.
            let lines = Self.fields([(.acceptEncoding, "gzip"), (.ifNoneMatch, "\"old\""), (.ifNoneMatch, tag)])
            #expect(try await api.send(.get, "/app.js", headers: lines).status == .notModified)
            // The gzipped tag does not stand for the plain bytes, nor the plain tag for the gzipped.
            let plain = try await api.send(.get, "/app.js", headers: [.ifNoneMatch: tag])
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil)
            let plainTag = try #require(plain.headers[.eTag])
            let other = try await api.send(.get, "/app.js", headers: [.acceptEncoding: "gzip", .ifNoneMatch: plainTag])
            #expect(other.status == .ok && other.headers[.contentEncoding] == "gzip")
            // HEAD: the GET's headers, no body.
            let head = try await api.send(.head, "/app.js", headers: [.acceptEncoding: "gzip"])
            #expect(head.status == .ok && head.headers[.eTag] == tag && head.bytes.isEmpty)
        }
    }
}
