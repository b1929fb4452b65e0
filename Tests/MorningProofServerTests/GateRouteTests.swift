import Foundation
import MorningProofTestSupport
import Testing

/// Issue 42 over HTTP: the gate's answer, its unlock and the shield's settings, with the CLI's rule.
@Suite("The gate over HTTP")
struct GateRouteTests {
    /// Ada in UTC with a required photo habit "Make bed" and a required "Read"; returns her token
    /// and the habits' ids.
    static func morning(_ api: TestAPI) async throws -> (token: String, bed: Int, read: Int) {
        let token = try await api.signUp("ada@example.com", timezone: "UTC")
        let bed = try await api.send(
            .post, "/api/habits", token: token, at: "2026-11-16T07:00:00Z",
            json: #"{"name": "Make bed", "kind": "photo", "required": true}"#)
        let read = try await api.send(
            .post, "/api/habits", token: token, at: "2026-11-16T07:00:00Z", json: #"{"name": "Read", "required": true}"#
        )
        return (token, try #require(bed.json["id"] as? Int), try #require(read.json["id"] as? Int))
    }

    @Test(arguments: Engine.available) func closedWithPendingHabitsThenOpenAfterTheProof(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (token, bed, read) = try await Self.morning(api)
            let at = "2026-11-18T08:00:00Z"
            let closed = try await api.send(.get, "/api/gate", token: token, at: at)
            #expect(closed.status == .ok, "\(closed.body)")
            #expect(
                Set(closed.json.keys) == [
                    "open", "reason", "pending", "checkin", "excusesLeft", "excuseBackOn", "quote", "day", "nextChange",
                ])
            #expect(closed.json["open"] as? Bool == false && closed.json["reason"] as? String == "pending")
            let pending = try #require(closed.json["pending"] as? [[String: Any]])
            #expect(
                pending.map { "\($0["id"] ?? "") \($0["name"] ?? "") \($0["kind"] ?? "")" } == [
                    "\(bed) Make bed photo", "\(read) Read manual",
                ])
            #expect(closed.json["day"] as? String == "2026-11-18" && closed.json["excusesLeft"] as? Int == 2)
            #expect(closed.json["checkin"] as? String == "none" && closed.json["nextChange"] is NSNull)
            let quote = try #require(closed.json["quote"] as? [String: Any])
            #expect(Set(quote.keys) == ["id", "text", "author", "book"] && !(quote["text"] as? String ?? "").isEmpty)
            let text = try await api.send(.get, "/api/gate?format=text", token: token, at: at)
            #expect(
                text.body == "closed: Make bed, Read" && text.headers[.contentType]?.hasPrefix("text/plain") == true)

            let proof = try await api.upload(
                "/api/habits/\(bed)/proof", token: token, at: at, type: "image/jpeg",
                body: try Scenes.bytes("made-1.jpg"))
            #expect(proof.status == .created, "\(proof.body)")
            let half = try await api.send(.get, "/api/gate?format=text", token: token, at: at)
            #expect(half.body == "closed: Read")
            let done = try await api.send(
                .put, "/api/habits/\(read)/entries/today", token: token, at: at, json: #"{"status": "done"}"#)
            #expect(done.status == .created, "\(done.body)")
            let open = try await api.send(.get, "/api/gate", token: token, at: at)
            #expect(open.json["open"] as? Bool == true && open.json["reason"] as? String == "done")
            #expect((open.json["pending"] as? [Any])?.isEmpty == true)
            #expect(open.json["nextChange"] as? String == "2026-11-19T00:00:00Z", "\(open.body)")
            #expect(try await api.send(.get, "/api/gate?format=text", token: token, at: at).body == "open")
            let bad = try await api.send(.get, "/api/gate?format=xml", token: token, at: at)
            #expect(bad.status == .badRequest && bad.errorCode == "bad_request")
        }
    }

    @Test(arguments: Engine.available) func anUnlockSpendsAnExcuseAndIsRefusedWithNoneLeft(engine: Engine) async throws
    {
        try await TestServer.run(on: engine) { api in
            let (token, _, _) = try await Self.morning(api)
            for (morning, left) in [("2026-11-18T08:00:00Z", 1), ("2026-11-19T08:00:00Z", 0)] {
                let unlocked = try await api.send(
                    .post, "/api/gate/unlock", token: token, at: morning, json: #"{"reason": "on call"}"#)
                #expect(unlocked.status == .ok, "\(unlocked.body)")
                #expect(unlocked.json["open"] as? Bool == true && unlocked.json["reason"] as? String == "unlocked")
                #expect(unlocked.json["excusesLeft"] as? Int == left, "\(unlocked.body)")
            }
            let friday = "2026-11-20T08:00:00Z"
            let refused = try await api.send(
                .post, "/api/gate/unlock", token: token, at: friday, json: #"{"reason": "again"}"#)
            #expect(refused.status == .conflict, "\(refused.body)")
            #expect(refused.json["code"] as? String == "no_excuses_left")
            #expect(refused.json["error"] as? String == "No excuses left this week; the next comes back on Wednesday")
            #expect(refused.json["excuseBackOn"] as? String == "2026-11-25")
            let gate = try await api.send(.get, "/api/gate", token: token, at: friday)
            #expect(gate.json["open"] as? Bool == false && gate.json["excusesLeft"] as? Int == 0)
            #expect(gate.json["excuseBackOn"] as? String == "2026-11-25")
            let blank = try await api.send(
                .post, "/api/gate/unlock", token: token, at: friday, json: #"{"reason": " "}"#)
            #expect(blank.status == .badRequest, "\(blank.body)")
        }
    }

    @Test(arguments: Engine.available) func theCutoffAndTheDaysOffLiftTheShield(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (token, _, _) = try await Self.morning(api)
            let put = try await api.send(
                .put, "/api/gate/settings", token: token,
                json: #"{"sites": ["Instagram.com", "*.reddit.com"], "cutoff": "09:30", "days": ["mon", "Wednesday"]}"#)
            #expect(put.status == .ok, "\(put.body)")
            let settings = try await api.send(.get, "/api/gate/settings", token: token)
            #expect(settings.json["sites"] as? [String] == ["instagram.com", "*.reddit.com"])
            #expect(settings.json["cutoff"] as? String == "09:30")
            #expect(settings.json["days"] as? [String] == ["monday", "wednesday"])
            // Wednesday 2026-11-18: shielded until 09:30.
            let before = try await api.send(.get, "/api/gate", token: token, at: "2026-11-18T09:00:00Z")
            #expect(before.json["open"] as? Bool == false && before.json["reason"] as? String == "pending")
            #expect(before.json["nextChange"] as? String == "2026-11-18T09:30:00Z")
            let after = try await api.send(.get, "/api/gate", token: token, at: "2026-11-18T09:30:00Z")
            #expect(after.json["open"] as? Bool == true && after.json["reason"] as? String == "cutoff")
            // An unlock past the cutoff spends nothing.
            let unlock = try await api.send(
                .post, "/api/gate/unlock", token: token, at: "2026-11-18T10:00:00Z", json: #"{"reason": "why"}"#)
            #expect(unlock.status == .ok && unlock.json["excusesLeft"] as? Int == 2, "\(unlock.body)")
            // Thursday is not a shield day.
            let thursday = try await api.send(.get, "/api/gate?format=text", token: token, at: "2026-11-19T08:00:00Z")
            #expect(thursday.body == "open")
            let off = try await api.send(.get, "/api/gate", token: token, at: "2026-11-19T08:00:00Z")
            #expect(off.json["reason"] as? String == "off")
            // No cutoff and every day again: closed on Thursday morning.
            let reset = try await api.send(
                .put, "/api/gate/settings", token: token, json: #"{"sites": [], "cutoff": null}"#)
            #expect(
                reset.json["days"] as? [String] == [
                    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                ])
            #expect(reset.json["cutoff"] is NSNull, "\(reset.body)")
            let closed = try await api.send(.get, "/api/gate?format=text", token: token, at: "2026-11-19T08:00:00Z")
            #expect(closed.body == "closed: Make bed, Read")
        }
    }

    @Test(arguments: Engine.available) func badSettingsAre400AndChangeNothing(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let good = #"{"sites": ["instagram.com"], "cutoff": "10:00", "days": ["monday"]}"#
            #expect(try await api.send(.put, "/api/gate/settings", token: token, json: good).status == .ok)
            for body in [
                #"{"sites": ["https://instagram.com/"], "cutoff": "10:00", "days": ["monday"]}"#,
                #"{"sites": ["insta gram.com"]}"#, #"{"sites": [3]}"#, #"{"sites": "instagram.com"}"#,
                #"{"sites": [], "cutoff": "25:00"}"#, #"{"sites": [], "cutoff": "9am"}"#,
                #"{"sites": [], "days": ["funday"]}"#, #"{"sites": [], "days": []}"#, #"{"days": null}"#,
                #"{"sites": [], "extra": 1}"#, #"{"sites": ["localhost"]}"#, #"{"sites": ["*.localhost"]}"#,
                #"{"sites": ["127.0.0.1"]}"#, #"{"sites": ["*.0.0.1"]}"#,
            ] {
                let reply = try await api.send(.put, "/api/gate/settings", token: token, json: body)
                #expect(reply.status == .badRequest && reply.errorCode == "bad_request", "\(body): \(reply.body)")
            }
            let settings = try await api.send(.get, "/api/gate/settings", token: token)
            #expect(
                settings.json["sites"] as? [String] == ["instagram.com"]
                    && settings.json["cutoff"] as? String == "10:00")
            #expect(settings.json["days"] as? [String] == ["monday"])
        }
    }

    @Test(arguments: Engine.available) func anotherAccountsGateIsNeverRead(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, _, _) = try await Self.morning(api)
            let bo = try await api.signUp("bo@example.com", timezone: "UTC")
            let at = "2026-11-18T08:00:00Z"
            _ = try await api.send(
                .put, "/api/gate/settings", token: ada, json: #"{"sites": ["instagram.com"], "cutoff": "09:00"}"#)
            let bos = try await api.send(.get, "/api/gate", token: bo, at: at)
            #expect(bos.json["open"] as? Bool == true && (bos.json["pending"] as? [Any])?.isEmpty == true)
            let settings = try await api.send(.get, "/api/gate/settings", token: bo)
            #expect(settings.json["sites"] as? [String] == [] && settings.json["cutoff"] is NSNull)
            // Bo's unlock is Bo's: Ada's gate stays closed with her two excuses.
            _ = try await api.send(.post, "/api/habits", token: bo, json: #"{"name": "Walk", "required": true}"#)
            let unlocked = try await api.send(.post, "/api/gate/unlock", token: bo, at: at, json: #"{"reason": "x"}"#)
            #expect(unlocked.json["reason"] as? String == "unlocked")
            let adas = try await api.send(.get, "/api/gate", token: ada, at: at)
            #expect(adas.json["open"] as? Bool == false && adas.json["excusesLeft"] as? Int == 2)
            // Bo's gate token answers Bo's gate.
            let gateToken = try await api.send(
                .post, "/api/tokens", token: bo, json: #"{"name": "phone", "scope": "gate"}"#)
            let phone = try #require(gateToken.json["token"] as? String)
            let seen = try await api.send(.get, "/api/gate?format=text", token: phone, at: at)
            #expect(seen.body == "open")
        }
    }
}
