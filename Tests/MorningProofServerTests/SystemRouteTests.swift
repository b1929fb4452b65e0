import Foundation
import Hummingbird
import MorningProofTestSupport
import TestFixtures
import Testing

@Suite("Health, the spec, and the answers to paths, methods and bodies the API does not take")
struct SystemRouteTests {
    @Test(arguments: Engine.available) func healthNeedsNoAccount(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let reply = try await api.send(.get, "/health")
            #expect(reply.status == .ok)
            #expect(reply.body == #"{"clockHeader":true,"status":"ok"}"#)
        }
    }

    @Test(arguments: Engine.available) func servesTheCommittedSpec(engine: Engine) async throws {
        let committed = try String(
            contentsOf: Repository.url("openapi.yaml"), encoding: .utf8)
        try await TestServer.run(on: engine) { api in
            let reply = try await api.send(.get, "/openapi.yaml")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(reply.body == committed)
        }
    }

    @Test(arguments: Engine.available) func anUnknownPathIs404JSON(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            for path in ["/nothing", "/api", "/api/auth", "/api/auth/me/more"] {
                let reply = try await api.send(.get, path)
                #expect(reply.status == .notFound, "\(path)")
                #expect(reply.errorCode == "not_found", "\(path)")
            }
        }
    }

    @Test(arguments: Engine.available) func aKnownPathWithAnotherMethodIs405WithAllow(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.get, "/api/auth/signup", "POST"), (.delete, "/api/auth/me", "GET, HEAD"),
                (.put, "/api/auth/profile", "PATCH"), (.post, "/api/stats/summary", "GET, HEAD"),
                (.get, "/api/age/daily-update", "POST"), (.post, "/health", "GET, HEAD"),
                (HTTPRequest.Method("TRACE")!, "/api/auth/login", "POST"),
            ]
            for (method, path, allow) in cases {
                let reply = try await api.send(method, path)
                #expect(reply.status == .methodNotAllowed, "\(method) \(path)")
                #expect(reply.headers[.allow] == allow, "\(method) \(path)")
                #expect(reply.errorCode == "method_not_allowed")
            }
        }
    }

    @Test(arguments: Engine.available) func bodiesOverTheLimitAre413(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let big = "{\"email\": \"a@example.com\", \"password\": \"" + String(repeating: "x", count: 70_000) + "\"}"
            let reply = try await api.send(.post, "/api/auth/signup", json: big)
            #expect(reply.status == .contentTooLarge)
            #expect(reply.errorCode == "payload_too_large")
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let metrics = "{\"metrics\": {\"notes\": \"" + String(repeating: "y", count: 70_000) + "\"}}"
            let update = try await api.dailyUpdate(token, at: "2026-03-08T12:00:00Z", json: metrics)
            #expect(update.status == .contentTooLarge)
        }
    }

    @Test(arguments: Engine.available) func bodiesThatAreNotAJSONObjectAre400(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            for body in ["", "not json", "[1, 2]", "\"text\"", "42", "null", "{\"metrics\": {}", "[[[[[[[[[[[[["] {
                let reply = try await api.dailyUpdate(token, at: "2026-03-08T12:00:00Z", json: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.errorCode == "invalid_json", "\(body)")
            }
            let deep = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
            let reply = try await api.dailyUpdate(
                token, at: "2026-03-08T12:00:00Z", json: "{\"metrics\": {\"a\": \(deep)}}")
            #expect(reply.status == .badRequest)
        }
    }

    @Test(arguments: Engine.available) func aBadClockHeaderIs400AndIgnoredWithoutTheFlag(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let reply = try await api.summary(token, at: "yesterday")
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessage.contains("X-MorningProof-Now"))
        }
        try await TestServer.with(engine) { server in
            var server = server
            server.configuration.allowClockHeader = false
            try await server.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "UTC")
                let reply = try await api.summary(token, at: "2011-12-30T12:00:00Z")
                #expect(reply.status == .ok)
                // The real time (the test's clock), not the header.
                #expect(reply.json["day"] as? String == "2026-09-21")
            }
        }
    }

    @Test(arguments: Engine.available) func logsOneLinePerRequestWithoutTokensOrPasswords(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let token = try await server.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "UTC")
                _ = try await api.send(.get, "/api/auth/me?secret=query", token: token)
                _ = try await api.send(.get, "/nowhere")
                return token
            }
            let logged = server.logs.withLock { $0 }
            // The requests' lines; the server's notice at start (passkeys without --public-url) aside.
            let lines = logged.filter { !$0.hasPrefix("notice ") }
            #expect(lines.count == 3, "\(logged)")
            // Each line begins with the client's address: none in the router's tests, without a socket.
            #expect(lines[0].hasPrefix("info unknown POST /api/auth/signup 201 "))
            #expect(lines[1].hasPrefix("info unknown GET /api/auth/me 200 "))
            #expect(lines[2].hasPrefix("info unknown GET /nowhere 404 "))
            #expect(lines.allSatisfy { $0.hasSuffix(" ms") })
            for line in logged {
                #expect(!line.contains(token) && !line.contains("correct horse") && !line.contains("secret"))
            }
        }
    }
}
