import MorningProofCore
import Crypto
import Foundation
import NotificationTestSupport
import Testing

@testable import NotificationDelivery

@Suite struct VAPIDTokenTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theJWTNamesTheOriginAndExpiresIn12Hours() throws {
        let key = VAPIDKey()
        let token = try VAPIDToken(
            key: key, audience: "https://push.example.net", contact: "mailto:ops@example.com", now: now)
        let parts = token.jwt.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = try JSONDecoder().decode([String: String].self, from: #require(Base64URL.decode(parts[0])))
        #expect(header == ["typ": "JWT", "alg": "ES256"])
        let claims = try JSONDecoder().decode(VAPIDToken.Claims.self, from: #require(Base64URL.decode(parts[1])))
        #expect(claims.aud == "https://push.example.net")
        #expect(claims.exp == 1_800_000_000 + 12 * 3600)
        #expect(claims.sub == "mailto:ops@example.com")
        #expect(token.authorization == "vapid t=\(token.jwt), k=\(key.publicKeyBase64URL)")
    }

    @Test func theSignatureIsRawES256OverHeaderAndClaims() throws {
        let key = VAPIDKey()
        let token = try VAPIDToken(key: key, audience: "https://push.example.net", contact: "mailto:a@b.c", now: now)
        let parts = token.jwt.split(separator: ".").map(String.init)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let public_ = try P256.Signing.PublicKey(x963Representation: key.publicKey)
        #expect(
            public_.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8)
            ))
        // What a push service checks, and what it refuses.
        let audience = "https://push.example.net"
        #expect(
            (try? VAPIDVerifier.verify(authorization: token.authorization, audience: audience, now: now).get()) != nil)
        #expect(throws: VAPIDVerifier.Problem.self) {
            try VAPIDVerifier.verify(authorization: token.authorization, audience: "https://other.example", now: now)
                .get()
        }
        #expect(throws: VAPIDVerifier.Problem.self) {
            try VAPIDVerifier.verify(
                authorization: token.authorization, audience: audience, now: now.addingTimeInterval(13 * 3600)
            ).get()
        }
        let forged = "vapid t=\(token.jwt), k=\(VAPIDKey().publicKeyBase64URL)"
        #expect(throws: VAPIDVerifier.Problem.self) {
            try VAPIDVerifier.verify(authorization: forged, audience: audience, now: now).get()
        }
    }

    @Test func theAudienceIsTheEndpointsOrigin() throws {
        let cases = [
            ("https://fcm.googleapis.com/fcm/send/abc:def", "https://fcm.googleapis.com"),
            ("https://Web.Push.Apple.com:443/QGx", "https://web.push.apple.com"),
            ("http://127.0.0.1:8123/push/a", "http://127.0.0.1:8123"),
            ("https://[2001:db8::1]:8443/x", "https://[2001:db8::1]:8443"),
        ]
        for (endpoint, origin) in cases {
            #expect(VAPIDToken.origin(of: try #require(URL(string: endpoint))) == origin)
        }
    }
}
