import Foundation
import Hummingbird
import MorningProofService
import MorningProofTestSupport
import Testing

@Suite("Sign-up, sign-in, sign-out and bearer tokens")
struct AuthTests {
    @Test(arguments: Engine.available) func signUpGivesATokenAndTheUser(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let reply = try await api.send(
                .post, "/api/auth/signup",
                json: #"{"email": "Ada@Example.com", "password": "correct horse", "timezone": "Europe/Istanbul"}"#)
            #expect(reply.status == .created)
            let token = try #require(reply.json["token"] as? String)
            #expect(token.hasPrefix("mp_") && token.count == 46)
            let user = try #require(reply.json["user"] as? [String: Any])
            #expect(user["email"] as? String == "Ada@Example.com")
            #expect(user["timezone"] as? String == "Europe/Istanbul")
            #expect(user["dayStart"] as? String == "00:00")
            #expect(user["weekStart"] as? String == "monday")
            #expect((user["id"] as? Int ?? 0) > 1)  // account 1 is the owner

            let me = try await api.send(.get, "/api/auth/me", token: token)
            #expect(me.status == .ok)
            #expect(me.json["email"] as? String == "Ada@Example.com")
        }
    }

    @Test(arguments: Engine.available) func anEmailIsTakenInAnyCase(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            _ = try await api.signUp("ada@example.com")
            let reply = try await api.send(
                .post, "/api/auth/signup", json: #"{"email": "ADA@example.COM", "password": "another one"}"#)
            #expect(reply.status == .conflict)
            #expect(reply.errorCode == "email_taken")
        }
    }

    @Test(arguments: Engine.available) func refusesBadSignUps(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let bodies = [
                #"{"email": "not an email", "password": "correct horse"}"#,
                #"{"email": "ada@localhost", "password": "correct horse"}"#,
                #"{"email": "ada@example.com", "password": "short"}"#,
                #"{"email": "ada@example.com"}"#,
                #"{"password": "correct horse"}"#,
                #"{"email": 7, "password": "correct horse"}"#,
                #"{"email": "ada@example.com", "password": "correct horse", "admin": true}"#,
                #"{"email": "ada@example.com", "password": "correct horse", "timezone": null}"#,
            ]
            for body in bodies {
                let reply = try await api.send(.post, "/api/auth/signup", json: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.errorCode == "bad_request", "\(body)")
            }
        }
    }

    @Test(arguments: Engine.available) func zonesAreIANANamesWithTheClosestSuggested(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let cases = [
                ("Europe/Londn", "did you mean Europe/London?"), ("GMT+3", "unknown time zone \"GMT+3\""),
                ("EST", "did you mean America/New_York?"), ("+03:00", "unknown time zone \"+03:00\""),
                ("", "the time zone is empty"), ("Kolkatta", "did you mean Asia/Kolkata?"),
            ]
            for (zone, message) in cases {
                let reply = try await api.send(
                    .post, "/api/auth/signup",
                    json: "{\"email\": \"ada@example.com\", \"password\": \"correct horse\", \"timezone\": \"\(zone)\"}"
                )
                #expect(reply.status == .badRequest, "\(zone)")
                #expect(reply.errorMessage.contains(message), "\(zone): \(reply.errorMessage)")
            }
        }
    }

    @Test(arguments: Engine.available) func logInGivesATokenThatExpiresIn30Days(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                _ = try await api.signUp("ada@example.com")
                let reply = try await api.send(
                    .post, "/api/auth/login", json: #"{"email": "ADA@example.com", "password": "correct horse"}"#)
                #expect(reply.status == .ok)
                let token = try #require(reply.json["token"] as? String)
                #expect(reply.json["expiresAt"] as? String == "2026-10-21T14:13:20Z")
                #expect(try await api.send(.get, "/api/auth/me", token: token).status == .ok)
                server.advanceRealTime(by: 30 * 86_400)
                let expired = try await api.send(.get, "/api/auth/me", token: token)
                #expect(expired.status == .unauthorized)
                #expect(expired.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#)
            }
        }
    }

    @Test(arguments: Engine.available) func aWrongPasswordOrAnUnknownEmailIs401(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            _ = try await api.signUp("ada@example.com")
            for body in [
                #"{"email": "ada@example.com", "password": "wrong horse"}"#,
                #"{"email": "bob@example.com", "password": "correct horse"}"#,
            ] {
                let reply = try await api.send(.post, "/api/auth/login", json: body)
                #expect(reply.status == .unauthorized)
                #expect(reply.errorCode == "wrong_credentials")
                #expect(reply.errorMessage == "wrong email or password")
            }
        }
    }

    @Test(arguments: Engine.available) func failedSignInsAreLimitedPerEmail(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                _ = try await api.signUp("ada@example.com")
                let wrong = #"{"email": "ada@example.com", "password": "wrong horse"}"#
                let right = #"{"email": "ada@example.com", "password": "correct horse"}"#
                for _ in 1...5 {
                    #expect(try await api.send(.post, "/api/auth/login", json: wrong).status == .unauthorized)
                }
                server.advanceRealTime(by: 60)
                // Refused even with the right password, for as long as the oldest failure is recent.
                let limited = try await api.send(.post, "/api/auth/login", json: right)
                #expect(limited.status == .tooManyRequests)
                #expect(limited.errorCode == "too_many_attempts")
                #expect(limited.headers[.retryAfter] == "840")
                server.advanceRealTime(by: 840)
                #expect(try await api.send(.post, "/api/auth/login", json: right).status == .ok)
                // Success forgets the email's failures.
                #expect(try await api.send(.post, "/api/auth/login", json: wrong).status == .unauthorized)
                #expect(try await api.send(.post, "/api/auth/login", json: right).status == .ok)
            }
        }
    }

    @Test(arguments: Engine.available) func failedSignInsAreLimitedPerAddress(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            for n in 1...20 {
                let reply = try await api.send(
                    .post, "/api/auth/login", json: "{\"email\": \"user\(n)@example.com\", \"password\": \"guessing\"}")
                #expect(reply.status == .unauthorized)
            }
            let reply = try await api.send(
                .post, "/api/auth/login", json: #"{"email": "someone@example.com", "password": "guessing"}"#)
            #expect(reply.status == .tooManyRequests)
        }
    }

    @Test(arguments: Engine.available) func missingOrBadTokensAre401WithWWWAuthenticate(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            for path in ["/api/auth/me", "/api/stats/summary"] {
                let missing = try await api.send(.get, path)
                #expect(missing.status == .unauthorized)
                #expect(missing.headers[.wwwAuthenticate] == "Bearer")
                #expect(missing.errorCode == "unauthorized")
            }
            for header in [
                "Bearer nonsense", "Bearer mp_" + String(repeating: "A", count: 43), "Basic YWRhOmhvcnNl", "Bearer",
            ] {
                let reply = try await api.send(.get, "/api/auth/me", headers: [.authorization: header])
                #expect(reply.status == .unauthorized, "\(header)")
                #expect(reply.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#, "\(header)")
            }
            let post = try await api.send(.post, "/api/age/daily-update", json: #"{"metrics": {}}"#)
            #expect(post.status == .unauthorized)
        }
    }

    @Test(arguments: Engine.available) func logOutRevokesThePresentedTokenOnly(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let first = try await api.signUp("ada@example.com")
            let second = try #require(
                try await api.send(
                    .post, "/api/auth/login", json: #"{"email": "ada@example.com", "password": "correct horse"}"#
                )
                .json["token"] as? String)
            let reply = try await api.send(.post, "/api/auth/logout", token: first)
            #expect(reply.status == .noContent)
            #expect(reply.body.isEmpty)
            #expect(try await api.send(.get, "/api/auth/me", token: first).status == .unauthorized)
            #expect(try await api.send(.get, "/api/auth/me", token: second).status == .ok)
            #expect(try await api.send(.post, "/api/auth/logout", token: first).status == .unauthorized)
        }
    }

    @Test(arguments: Engine.available) func onlyTheTokensHashIsStored(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let token = try await server.run { api in try await api.signUp("ada@example.com") }
            let hash = TokenSecret.hash(token)
            #expect(hash.count == 64 && hash != token)
            let now = server.realNow.withLock { $0 }
            #expect(try await server.store.account(tokenHash: hash, at: now)?.email == "ada@example.com")
            #expect(try await server.store.account(tokenHash: token, at: now) == nil)
        }
    }
}
