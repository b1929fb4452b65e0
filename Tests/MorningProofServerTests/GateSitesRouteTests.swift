import Foundation
import MorningProofTestSupport
import Testing

/// Issue 42: the browser extension pairs for a gate token, and shields the sites the account set:
/// `GET /api/gate/sites` answers them to that token, and the other settings stay a full token's.
@Suite("The shielded sites for the extension")
struct GateSitesRouteTests {
    @Test(arguments: Engine.available) func aGateTokenReadsItsAccountsSitesAndNoOtherSetting(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let (ada, _, _) = try await GateRouteTests.morning(api)
            let bo = try await api.signUp("bo@example.com", timezone: "UTC")
            _ = try await api.send(
                .put, "/api/gate/settings", token: ada,
                json: #"{"sites": ["instagram.com", "*.reddit.com"], "cutoff": "09:00"}"#)
            _ = try await api.send(.put, "/api/gate/settings", token: bo, json: #"{"sites": ["news.example"]}"#)
            let made = try await api.send(
                .post, "/api/tokens", token: ada, json: #"{"name": "Firefox", "scope": "gate"}"#)
            let gate = try #require(made.json["token"] as? String)
            let sites = try await api.send(.get, "/api/gate/sites", token: gate)
            #expect(sites.status == .ok, "\(sites.body)")
            #expect(sites.json["sites"] as? [String] == ["instagram.com", "*.reddit.com"])
            #expect(Set(sites.json.keys) == ["sites"])
            // A full token reads them the same; none, or a gate token on the settings, is refused.
            #expect(
                try await api.send(.get, "/api/gate/sites", token: bo).json["sites"] as? [String] == ["news.example"])
            #expect(try await api.send(.get, "/api/gate/sites").status == .unauthorized)
            #expect(try await api.send(.get, "/api/gate/settings", token: gate).status == .unauthorized)
        }
    }
}
