import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

/// Issue 42: the gate token (the extension's, a phone automation's) asks the gate and unlocks it,
/// nothing else; the pairing code that makes one is single use, lives 10 minutes, and is tried a
/// few times per address at most.
@Suite("Gate tokens and pairing")
struct GateTokenRouteTests {
    @Test(arguments: Engine.available) func aGateTokenOpensTheGateAndNothingElse(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, _, _) = try await GateRouteTests.morning(api)
            let made = try await api.send(
                .post, "/api/tokens", token: ada, json: #"{"name": "phone", "scope": "gate"}"#)
            #expect(made.status == .created && made.json["scope"] as? String == "gate", "\(made.body)")
            let gate = try #require(made.json["token"] as? String)
            let at = "2026-11-18T08:00:00Z"
            #expect(try await api.send(.get, "/api/gate", token: gate, at: at).status == .ok)
            #expect(
                try await api.send(.get, "/api/gate?format=text", token: gate, at: at).body == "closed: Make bed, Read")
            let unlocked = try await api.send(
                .post, "/api/gate/unlock", token: gate, at: at, json: #"{"reason": "ill"}"#)
            #expect(unlocked.status == .ok && unlocked.json["reason"] as? String == "unlocked", "\(unlocked.body)")
            for (method, path, body) in [
                (.get, "/api/habits", nil), (.get, "/api/status", nil), (.get, "/api/auth/me", nil),
                (.get, "/api/tokens", nil), (.post, "/api/tokens", #"{"name": "more", "scope": "full"}"#),
                (.get, "/api/gate/settings", nil), (.put, "/api/gate/settings", #"{"sites": []}"#),
                (.post, "/api/gate/pairing", nil), (.get, "/api/quote", nil),
                (.post, "/api/habits", #"{"name": "Mine"}"#),
            ] as [(HTTPRequest.Method, String, String?)] {
                let reply = try await api.send(method, path, token: gate, at: at, json: body)
                #expect(reply.status == .unauthorized, "\(method) \(path): \(reply.status)")
            }
            // Its metrics upload is refused too, and nothing of Ada's changed.
            let metrics = try await api.send(
                .post, "/api/metrics", token: gate, json: #"{"data": {"metrics": []}}"#)
            #expect(metrics.status == .unauthorized)
            let settings = try await api.send(.get, "/api/gate/settings", token: ada)
            #expect(settings.json["sites"] as? [String] == [])
            let habits = try await api.send(.get, "/api/habits", token: ada)
            #expect((habits.json["habits"] as? [Any])?.count == 2)
        }
    }

    @Test(arguments: Engine.available) func aPairingCodeGivesOneGateTokenOnceWithinTenMinutes(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let (ada, _, _) = try await GateRouteTests.morning(api)
                let made = try await api.send(.post, "/api/gate/pairing", token: ada)
                #expect(made.status == .created, "\(made.body)")
                let code = try #require(made.json["code"] as? String)
                #expect(code.count == 9 && made.json["expiresAt"] is String)
                // Not among the account's tokens, and not a token either.
                let listed = try await api.send(.get, "/api/tokens", token: ada)
                #expect((listed.json["tokens"] as? [Any])?.count == 1, "\(listed.body)")
                #expect(try await api.send(.get, "/api/gate", token: code).status == .unauthorized)

                let paired = try await api.send(
                    .post, "/api/gate/pair", json: #"{"code": "\#(code.lowercased())", "name": "Firefox"}"#)
                #expect(paired.status == .created, "\(paired.body)")
                #expect(paired.json["scope"] as? String == "gate" && paired.json["name"] as? String == "Firefox")
                let token = try #require(paired.json["token"] as? String)
                let gate = try await api.send(.get, "/api/gate?format=text", token: token, at: "2026-11-18T08:00:00Z")
                #expect(gate.body == "closed: Make bed, Read")
                #expect(try await api.send(.get, "/api/habits", token: token).status == .unauthorized)

                let again = try await api.send(.post, "/api/gate/pair", json: #"{"code": "\#(code)"}"#)
                #expect(again.status == .unprocessableContent && again.errorCode == "invalid_pairing_code")

                let late = try #require(
                    try await api.send(.post, "/api/gate/pairing", token: ada).json["code"] as? String)
                server.advanceRealTime(by: 601)
                let expired = try await api.send(.post, "/api/gate/pair", json: #"{"code": "\#(late)"}"#)
                #expect(expired.status == .unprocessableContent && expired.errorCode == "invalid_pairing_code")
                let tokens = try await api.send(.get, "/api/tokens", token: ada)
                #expect(
                    (tokens.json["tokens"] as? [[String: Any]])?.compactMap { $0["scope"] as? String } == [
                        "full", "gate",
                    ])
            }
        }
    }

    @Test(arguments: Engine.available) func pairingIsTriedAFewTimesPerAddress(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                for _ in 0..<10 {
                    let wrong = try await api.send(.post, "/api/gate/pair", json: #"{"code": "AAAA-AAAA"}"#)
                    #expect(wrong.status == .unprocessableContent)
                }
                let code = try #require(
                    try await api.send(.post, "/api/gate/pairing", token: ada).json["code"] as? String)
                let limited = try await api.send(.post, "/api/gate/pair", json: #"{"code": "\#(code)"}"#)
                #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_pairing_attempts")
                #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 > 0)
                server.advanceRealTime(by: 600)
                let paired = try await api.send(.post, "/api/gate/pair", json: #"{"code": "\#(code)"}"#)
                #expect(paired.status == .unprocessableContent, "the code expired meanwhile: \(paired.body)")
                let fresh = try #require(
                    try await api.send(.post, "/api/gate/pairing", token: ada).json["code"] as? String)
                let now = try await api.send(.post, "/api/gate/pair", json: #"{"code": "\#(fresh)"}"#)
                #expect(now.status == .created, "\(now.body)")
                let bad = try await api.send(.post, "/api/gate/pair", json: #"{"code": 12}"#)
                #expect(bad.status == .badRequest)
            }
        }
    }
}
