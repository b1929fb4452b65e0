import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

extension SpecText {
    /// Every operation of the spec as (method, path), whether it needs a token (no `security: []`)
    /// and whether it takes a JSON body.
    func operations() -> [(method: HTTPRequest.Method, path: String, signedIn: Bool, json: Bool)] {
        let methods = ["get", "post", "put", "patch", "delete"]
        var path: String?
        var found: [(HTTPRequest.Method, String, Bool, Bool)] = []
        for line in lines {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "),
                let name = methods.first(where: { line == "    \($0):" }),
                let method = HTTPRequest.Method(name.uppercased())
            {
                let operation = block([path, name])
                found.append(
                    (
                        method, path, !operation.contains("security: []"),
                        !block([path, name, "requestBody", "content", "application/json"]).isEmpty
                    ))
            }
        }
        return found
    }
}

/// What a stranger can do to every route the spec lists, and what another account can do to
/// everything of one account that has an id: the routes as the route files name them now, so that
/// a route moved or added is covered without a test of its own.
@Suite("Every route against a stranger and another account")
struct EveryRouteHostileTests {
    /// A JSON body over the 64 KiB limit: a route that read it before the token would answer 413.
    static let oversizedBody = "{\"name\": \"" + String(repeating: "a", count: 70_000) + "\"}"

    @Test(arguments: Engine.available) func everySignedInRouteIs401WithoutATokenBeforeItsBodyIsRead(engine: Engine)
        async throws
    {
        let operations = try SpecText().operations().filter(\.signedIn)
        #expect(operations.count >= 20, "the spec lists \(operations.count) signed-in operations")
        try await TestServer.run(on: engine) { api in
            for (method, template, _, _) in operations {
                let path = template.replacingOccurrences(of: "{id}", with: "1")
                    .replacingOccurrences(of: "{day}", with: "today")
                let body = method == .get || method == .delete ? nil : Self.oversizedBody
                let reply = try await api.send(method, path, json: body)
                #expect(reply.status == .unauthorized, "\(method) \(path): \(reply.status)")
                #expect(reply.headers[.wwwAuthenticate] == "Bearer", "\(method) \(path)")
                let forged = try await api.send(method, path, token: "mp_forged", json: body)
                #expect(forged.status == .unauthorized, "\(method) \(path) with a forged token: \(forged.status)")
            }
        }
    }

    @Test(arguments: Engine.available) func everyJSONBodyOverItsLimitIs413AndStoresNothing(engine: Engine)
        async throws
    {
        let operations = try SpecText().operations().filter { $0.signedIn && $0.json }
        #expect(operations.count >= 6, "the spec lists \(operations.count) signed-in JSON operations")
        try await TestServer.with(engine) { server in
            // The metrics upload takes 50 MB of JSON: here it gets the small routes' limit.
            var server = server
            server.configuration.metricsLimit = server.configuration.bodyLimit
            // So does an import (64 MB of a Loop backup, harsh's files or an export).
            server.configuration.importLimit = server.configuration.bodyLimit
            try await server.run { api in try await Self.overLimit(api, operations) }
        }
    }

    static func overLimit(
        _ api: TestAPI, _ operations: [(method: HTTPRequest.Method, path: String, signedIn: Bool, json: Bool)]
    ) async throws {
        let ada = try await api.signUp("ada@example.com", timezone: "UTC")
        let habit = try await api.send(.post, "/api/habits", token: ada, json: #"{"name": "Walk"}"#)
        let id = try #require(habit.json["id"] as? Int)
        for (method, template, _, _) in operations {
            let path = template.replacingOccurrences(of: "{id}", with: "\(id)")
                .replacingOccurrences(of: "{day}", with: "today")
            let reply = try await api.send(method, path, token: ada, json: Self.oversizedBody)
            #expect(reply.status == .contentTooLarge, "\(method) \(path): \(reply.status)")
        }
        let habits = try await api.send(.get, "/api/habits", token: ada)
        #expect((habits.json["habits"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Walk"])
        let tokens = try await api.send(.get, "/api/tokens", token: ada)
        #expect((tokens.json["tokens"] as? [Any])?.count == 1)
        let entries = try await api.send(.get, "/api/habits/\(id)/entries", token: ada)
        #expect((entries.json["entries"] as? [Any])?.isEmpty == true)
        let metrics = try await api.send(.get, "/api/metrics?from=2026-09-20&to=2026-09-22", token: ada)
        #expect(metrics.status == .ok && !metrics.body.contains("steps"), "\(metrics.body)")
    }

    @Test(arguments: Engine.available) func anotherAccountsIdsAreNotFoundAndNothingOfTheirsChanges(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let bo = try await api.signUp("bo@example.com", timezone: "UTC")
            let now = "2026-11-18T08:00:00Z"
            let habit = try await api.send(
                .post, "/api/habits", token: ada, at: "2026-11-17T07:00:00Z",
                json: #"{"name": "Make bed", "note": "corners tucked"}"#)
            let id = try #require(habit.json["id"] as? Int)
            let bosOwn = try await api.send(.post, "/api/habits", token: bo, at: now, json: #"{"name": "Read"}"#)
            let bosID = try #require(bosOwn.json["id"] as? Int)
            let done = try await api.send(
                .put, "/api/habits/\(id)/entries/2026-11-17", token: ada, at: now, json: #"{"status": "done"}"#)
            #expect(done.status == .ok || done.status == .created, "\(done.status) \(done.body)")
            let script = try await api.send(.post, "/api/tokens", token: ada, json: #"{"name": "backup"}"#)
            let tokenID = try #require(script.json["id"] as? Int)
            let endpoint = "https://push.example/ada-phone"
            let subscribed = try await api.send(
                .post, "/api/push/subscriptions", token: ada, at: now,
                json: NotificationRouteTests.subscription(endpoint))
            #expect(subscribed.status == .created, "\(subscribed.body)")

            for (method, path, body) in [
                (.get, "/api/habits/\(id)", nil), (.patch, "/api/habits/\(id)", #"{"name": "Mine now"}"#),
                (.delete, "/api/habits/\(id)", nil), (.get, "/api/habits/\(id)/entries", nil),
                (.put, "/api/habits/\(id)/entries/2026-11-17", #"{"status": "skipped"}"#),
                (.delete, "/api/habits/\(id)/entries/2026-11-17", nil),
                (.get, "/api/habits/\(id)/report", nil), (.get, "/api/habits/\(id)/chart.svg", nil),
                (.delete, "/api/tokens/\(tokenID)", nil),
                // An action sent with the instant it happened (a phone back online) is no key either.
                (.put, "/api/habits/\(id)/entries/today", #"{"status": "skipped", "at": "2026-11-18T07:00:00Z"}"#),
                (.delete, "/api/habits/\(id)/entries/today?at=2026-11-18T07:00:00Z", nil),
                (.delete, "/api/push/subscriptions", #"{"endpoint": "\#(endpoint)"}"#),
                // Clearing a field with null, and an order naming Ada's habit, alone or beside Bo's own.
                (.patch, "/api/habits/\(id)", #"{"note": null}"#),
                (.put, "/api/habits/order", #"{"ids": [\#(id)]}"#),
                (.put, "/api/habits/order", #"{"ids": [\#(bosID), \#(id)]}"#),
            ] as [(HTTPRequest.Method, String, String?)] {
                let reply = try await api.send(method, path, token: bo, at: now, json: body)
                #expect(reply.status == .notFound, "\(method) \(path): \(reply.status)")
            }
            // Ada's browser's endpoint, posted with keys of Bo's own, takes nothing over.
            let taken = try await api.send(
                .post, "/api/push/subscriptions", token: bo, at: now,
                json:
                    #"{"endpoint": "\#(endpoint)", "keys": {"p256dh": "\#(NotificationRouteTests.p256dh)", "auth": "BBBBBBBBBBBBBBBBBBBBBA"}}"#
            )
            #expect(taken.status == .conflict, "\(taken.status) \(taken.body)")
            let channels = try await api.send(.get, "/api/notifications/channels", token: ada, at: now)
            #expect((channels.json["push"] as? [[String: Any]])?.compactMap { $0["endpoint"] as? String } == [endpoint])
            let proof = try await api.upload(
                "/api/habits/\(id)/proof", token: bo, at: now, type: "image/jpeg", body: try Scenes.bytes("made-1.jpg"))
            #expect(proof.status == .notFound, "proof: \(proof.status)")

            // Ada's habit, its day and her script's token are as they were.
            let shown = try await api.send(.get, "/api/habits/\(id)", token: ada, at: now)
            #expect(shown.json["name"] as? String == "Make bed" && shown.json["note"] as? String == "corners tucked")
            let entries = try await api.send(.get, "/api/habits/\(id)/entries", token: ada, at: now)
            let days = (entries.json["entries"] as? [[String: Any]])?.map { "\($0["day"] ?? "") \($0["status"] ?? "")" }
            #expect(days == ["2026-11-17 done"])
            let me = try await api.send(.get, "/api/auth/me", token: try #require(script.json["token"] as? String))
            #expect(me.json["email"] as? String == "ada@example.com")
        }
    }
}
