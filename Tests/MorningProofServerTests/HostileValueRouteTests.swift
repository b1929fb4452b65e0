import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

/// Goal targets out of range and instants outside the supported years: 400, nothing stored.
@Suite struct HostileValueRouteTests {
    @Test(arguments: Engine.available) func hugeTargetsAndFarInstantsAreBadRequests(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                let at = "2026-03-10T08:00:00Z"
                for body in [
                    #"{"name": "S", "metric": "steps", "atLeast": 9999999999999999999}"#,
                    #"{"name": "S", "metric": "steps", "atLeast": "9999999999999999999"}"#,
                    #"{"name": "S", "metric": "steps", "atMost": -5}"#,
                ] {
                    let reply = try await api.send(.post, "/api/habits", token: ada, at: at, json: body)
                    #expect(reply.status == .badRequest, "\(body): \(reply.status) \(reply.body)")
                }
                let created = try await api.send(
                    .post, "/api/habits", token: ada, at: at, json: #"{"name": "S", "metric": "steps", "atLeast": 8000}"#)
                let id = try #require(created.json["id"] as? Int)
                let patched = try await api.send(
                    .patch, "/api/habits/\(id)", token: ada, at: at, json: #"{"atLeast": 1e19}"#)
                #expect(patched.status == .badRequest, "\(patched.body)")
                for far in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59-12:00"] {
                    let reply = try await api.send(.get, "/api/habits", token: ada, at: far)
                    #expect(reply.status == .badRequest, "\(far): \(reply.status) \(reply.body)")
                    #expect(reply.errorMessage.contains("outside the supported instants"), "\(reply.body)")
                }
                let goal = try await server.habits(of: 2) { try await $0.habits().first?.goal?.target }
                #expect(goal == 8000)
            }
        }
    }
}
