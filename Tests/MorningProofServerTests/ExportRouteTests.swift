import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 41: `GET /api/export`, the account's whole history as the CLI's `export` writes it.
@Suite("GET /api/export: the account's history as the CLI's export")
struct ExportRouteTests {
    @Test(arguments: Engine.available) func theExportIsTheLibrarysDocumentOfTheAccountAlone(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                let bob = try await api.signUp("bob@example.com", timezone: "UTC")
                let walk = try await api.send(.post, "/api/habits", token: ada, json: #"{"name": "Walk"}"#)
                let id = try #require(walk.json["id"] as? Int)
                let done = try await api.send(
                    .put, "/api/habits/\(id)/entries/today", token: ada, at: "2026-09-21T08:00:00Z",
                    json: #"{"status": "done"}"#)
                #expect(done.status == .ok || done.status == .created, "\(done.body)")
                _ = try await api.send(.post, "/api/habits", token: bob, json: #"{"name": "Read"}"#)

                let reply = try await api.send(.get, "/api/export", token: ada)
                #expect(reply.status == .ok, "\(reply.body)")
                #expect(reply.headers[.contentType] == "application/json")
                #expect(
                    reply.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"morningproof-export-")
                        == true)
                // The very bytes the library writes for the account (`morningproof export`).
                let me = try await api.send(.get, "/api/auth/me", token: ada)
                let account = try #require(me.json["id"] as? Int)
                let store = try #require(server.store.scoped(to: Int64(account)) as? any AccountExportStore)
                #expect(Data(reply.bytes) == (try await store.exportDocument().encoded()))
                #expect(reply.json["format"] as? String == "morningproof-export")
                let habits = try #require(reply.json["habits"] as? [[String: Any]])
                #expect(habits.map { $0["name"] as? String } == ["Walk"])
                #expect((habits.first?["entries"] as? [Any])?.count == 1)

                let csv = try await api.send(.get, "/api/export?format=csv", token: ada, at: "2026-09-21T09:00:00Z")
                #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8", "\(csv.body)")
                #expect(csv.body.contains("Walk") && !csv.body.contains("Read"), "\(csv.body)")
                let bad = try await api.send(.get, "/api/export?format=xml", token: ada)
                #expect(bad.status == .badRequest)
            }
        }
    }
}
