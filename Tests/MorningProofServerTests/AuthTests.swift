import Foundation
import Hummingbird
import MorningProofService
import MorningProofStoreContract
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

    /// A sign-up for a taken email (in any case) answers as a sign-in would: 401 "wrong email or
    /// password" for another password, 200 with the account's token for its own. It tells nothing
    /// that a sign-in does not.
    @Test(arguments: Engine.available) func aTakenEmailAnswersAsASignIn(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let first = try await api.signUp("ada@example.com")
            let reply = try await api.send(
                .post, "/api/auth/signup", json: #"{"email": "ADA@example.COM", "password": "another one"}"#)
            let login = try await api.send(
                .post, "/api/auth/login", json: #"{"email": "ADA@example.COM", "password": "another one"}"#)
            #expect(reply.status == .unauthorized)
            #expect(reply.errorCode == "wrong_credentials")
            #expect(reply.body == login.body && reply.status == login.status)
            let own = try await api.send(
                .post, "/api/auth/signup", json: #"{"email": "ada@example.com", "password": "correct horse"}"#)
            #expect(own.status == .ok)
            let token = try #require(own.json["token"] as? String)
            #expect(token != first)
            let me = try await api.send(.get, "/api/auth/me", token: token)
            #expect(
                me.json["id"] as? Int == (try await api.send(.get, "/api/auth/me", token: first)).json["id"] as? Int)
        }
    }

    /// 40 wrong sign-ins at once, the right password among them: at most the limit's number (5)
    /// reach the password check; the rest are 429 with `Retry-After`, and the right password is
    /// refused once the limit is reached. On PostgreSQL the count is the shared database's.
    @Test(arguments: Engine.available) func simultaneousSignInsGetNoMoreThanTheLimit(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            _ = try await api.signUp("ada@example.com")
            let replies = try await withThrowingTaskGroup(of: Reply.self) { group in
                for n in 0..<40 {
                    let password = n == 20 ? "correct horse" : "wrong horse \(n)"
                    group.addTask {
                        try await api.send(
                            .post, "/api/auth/login",
                            json: "{\"email\": \"ada@example.com\", \"password\": \"\(password)\"}")
                    }
                }
                return try await group.reduce(into: [Reply]()) { $0.append($1) }
            }
            let answered = replies.filter { $0.status == .unauthorized || $0.status == .ok }
            let limited = replies.filter { $0.status == .tooManyRequests }
            #expect(answered.count <= 5, "\(replies.map(\.status.code))")
            #expect(answered.count + limited.count == 40, "\(replies.map(\.status.code))")
            #expect(limited.allSatisfy { Int($0.headers[.retryAfter] ?? "") ?? 0 > 0 })
            let right = try await api.send(
                .post, "/api/auth/login", json: #"{"email": "ada@example.com", "password": "correct horse"}"#)
            if !answered.contains(where: { $0.status == .ok }) {
                #expect(right.status == .tooManyRequests)
            }
        }
    }

    /// Sign-ups from one address: 10 an hour, then 429 with `Retry-After`, and nothing stored.
    @Test(arguments: Engine.available) func signUpsAreLimitedPerAddress(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                for n in 1...10 { _ = try await api.signUp("user\(n)@example.com") }
                server.advanceRealTime(by: 600)
                let reply = try await api.send(
                    .post, "/api/auth/signup", json: #"{"email": "late@example.com", "password": "correct horse"}"#)
                #expect(reply.status == .tooManyRequests)
                #expect(reply.errorCode == "too_many_attempts")
                #expect(reply.headers[.retryAfter] == "3000")
                #expect(try await server.store.accountID(email: "late@example.com") == nil)
                server.advanceRealTime(by: 3000)
                _ = try await api.signUp("late@example.com")
            }
        }
    }

    /// A token already signed in is never refused: the sign-in limit is for passwords only.
    @Test(arguments: Engine.available) func aSignedInTokenIsNeverLimited(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            for _ in 1...30 {
                _ = try await api.send(
                    .post, "/api/auth/login", json: #"{"email": "ada@example.com", "password": "wrong horse"}"#)
            }
            #expect(try await api.send(.get, "/api/auth/me", token: token).status == .ok)
            #expect(try await api.send(.get, "/api/habits", token: token).status == .ok)
            #expect(
                try await api.send(.post, "/api/tokens", token: token, json: #"{"name": "script"}"#).status == .created)
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
