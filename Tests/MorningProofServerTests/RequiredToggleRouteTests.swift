import Foundation
import MorningProofTestSupport
import Testing

/// Issue 39, the attack's toggle: `required: false`, a free skip, `required: true` was a skip no
/// excuse paid for. Making a habit required while the budget's week holds a skip of it spends an
/// excuse for that skip; with none left the change is 422 `no_excuses_left` and nothing changes.
@Suite("Making a habit required spends an excuse for its skip (issue 39)")
struct RequiredToggleRouteTests {
    static let morning = "2026-11-20T07:00:00Z"

    func toggle(_ api: TestAPI, _ token: String, _ path: String) async throws -> Reply {
        let off = try await api.send(.patch, path, token: token, at: Self.morning, json: #"{"required": false}"#)
        #expect(off.status == .ok, "\(off.body)")
        let free = try await api.send(
            .put, "\(path)/entries/today", token: token, at: Self.morning, json: #"{"status": "skipped"}"#)
        #expect(free.status == .created, "\(free.body)")
        return try await api.send(.patch, path, token: token, at: Self.morning, json: #"{"required": true}"#)
    }

    @Test(arguments: Engine.available) func aFreeSkipMadeRequiredSpendsAnExcuseOrIsRefused(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            var paths: [String] = []
            for name in ["One", "Two", "Three"] {
                let created = try await api.send(
                    .post, "/api/habits", token: token, at: Self.morning,
                    json: #"{"name": "\#(name)", "required": true}"#)
                paths.append("/api/habits/\(try #require(created.json["id"] as? Int))")
            }
            let skipped = try await api.send(
                .put, "\(paths[0])/entries/today", token: token, at: Self.morning, json: #"{"status": "skipped"}"#)
            #expect(skipped.status == .created, "\(skipped.body)")
            // One excuse left: making the skipped habit required spends it.
            let paid = try await toggle(api, token, paths[1])
            #expect(paid.status == .ok && paid.json["required"] as? Bool == true, "\(paid.body)")
            let status = try await api.send(.get, "/api/status", token: token, at: Self.morning)
            #expect(status.json["excusesLeft"] as? Int == 0, "\(status.body)")
            // None left: refused, and the habit stays not required.
            let refused = try await toggle(api, token, paths[2])
            #expect(
                refused.status == .unprocessableContent && refused.errorCode == "no_excuses_left", "\(refused.body)")
            let shown = try await api.send(.get, paths[2], token: token, at: Self.morning)
            #expect(shown.json["required"] as? Bool == false, "\(shown.body)")
        }
    }
}
