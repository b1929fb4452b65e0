import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofServer
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 41: a person changes their password, sees and ends their sessions, and sets a new
/// password with a reset code; a disabled account is refused. On both engines.
@Suite("Accounts a person owns: password, sessions, reset codes, disabled accounts")
struct AccountRouteTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
    static let linuxFirefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

    /// Signs `email` in with `password` from a browser whose User-Agent is `agent`; the token.
    static func logIn(_ api: TestAPI, _ email: String, _ password: String = "correct horse", agent: String? = nil)
        async throws -> Reply
    {
        var headers = HTTPFields()
        if let agent { headers[.userAgent] = agent }
        return try await api.send(
            .post, "/api/auth/login", json: #"{"email": "\#(email)", "password": "\#(password)"}"#, headers: headers)
    }

    @Test(arguments: Engine.available) func thePasswordChangesWithTheCurrentOneAndOtherSessionsCanEnd(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let phone = try #require(try await Self.logIn(api, "ada@example.com").json["token"] as? String)
            let path = "/api/auth/password"

            let wrong = try await api.send(
                .put, path, token: ada, json: #"{"current": "wrong horse", "new": "battery staple"}"#)
            #expect(wrong.status == .forbidden && wrong.errorCode == "wrong_password", "\(wrong.body)")
            for weak in ["short one", "ada@example.com", "ADA@example.com"] {
                let refused = try await api.send(
                    .put, path, token: ada, json: #"{"current": "correct horse", "new": "\#(weak)"}"#)
                #expect(
                    refused.status == .badRequest && refused.errorCode == "weak_password", "\(weak): \(refused.body)")
            }
            let extra = try await api.send(
                .put, path, token: ada, json: #"{"current": "correct horse", "new": "battery staple", "x": 1}"#)
            #expect(extra.status == .badRequest)

            let changed = try await api.send(
                .put, path, token: ada,
                json: #"{"current": "correct horse", "new": "battery staple", "signOutOthers": true}"#)
            #expect(changed.status == .noContent, "\(changed.body)")
            #expect(try await api.send(.get, "/api/auth/me", token: ada).status == .ok)
            #expect(try await api.send(.get, "/api/auth/me", token: phone).status == .unauthorized)
            #expect(try await Self.logIn(api, "ada@example.com").status == .unauthorized)
            #expect(try await Self.logIn(api, "ada@example.com", "battery staple").status == .ok)
        }
    }

    @Test(arguments: Engine.available) func wrongCurrentPasswordsAreCountedLikeSignIns(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 {
                let reply = try await api.send(
                    .put, "/api/auth/password", token: ada,
                    json: #"{"current": "guess guess", "new": "battery staple"}"#)
                statuses.append(reply.status)
            }
            #expect(statuses == Array(repeating: .forbidden, count: 5) + [.tooManyRequests], "\(statuses)")
        }
    }

    @Test(arguments: Engine.available) func sessionsAreNamedByTheirDeviceAndOthersSignOut(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                _ = try await api.signUp("ada@example.com", timezone: "UTC")
                let phone = try #require(
                    try await Self.logIn(api, "ada@example.com", agent: Self.iPhone).json["token"] as? String)
                let laptop = try #require(
                    try await Self.logIn(api, "ada@example.com", agent: Self.linuxFirefox).json["token"] as? String)
                let listed = try await api.send(.get, "/api/tokens", token: phone)
                let tokens = try #require(listed.json["tokens"] as? [[String: Any]], "\(listed.body)")
                #expect(tokens.count == 3)
                #expect(tokens.compactMap { $0["device"] as? String } == ["Safari on iPhone", "Firefox on Linux"])
                #expect(tokens.map { $0["current"] as? Bool } == [false, true, false])
                // The phone's use now, to the hour: 2026-09-21T14:13:20Z is kept as 14:00.
                #expect(tokens[1]["lastUsedAt"] as? String == "2026-09-21T14:00:00Z", "\(tokens[1])")

                let out = try await api.send(.post, "/api/auth/sign-out-others", token: phone)
                #expect(out.status == .ok && out.json["signedOut"] as? Int == 2, "\(out.body)")
                #expect(try await api.send(.get, "/api/auth/me", token: laptop).status == .unauthorized)
                let left = try await api.send(.get, "/api/tokens", token: phone)
                #expect((left.json["tokens"] as? [[String: Any]])?.count == 1)
            }
        }
    }

    @Test(arguments: Engine.available) func aResetCodeSetsANewPasswordOnceWithinAnHour(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                let service = AccountService(database: server.store, hasher: UnusedHasher())
                let now = server.realNow.withLock { $0 }
                let code = try await service.issueResetCode(email: "ada@example.com", now: now)
                let stale = try await service.issueResetCode(
                    email: "ada@example.com", now: now.addingTimeInterval(-3601))

                let weak = try await api.send(.post, "/api/auth/reset", json: #"{"code": "\#(code)", "new": "short"}"#)
                #expect(weak.status == .badRequest && weak.errorCode == "weak_password")
                let reset = try await api.send(
                    .post, "/api/auth/reset", json: #"{"code": "\#(code)", "new": "battery staple"}"#)
                #expect(reset.status == .noContent, "\(reset.body)")
                #expect(try await api.send(.get, "/api/auth/me", token: ada).status == .unauthorized)
                #expect(try await Self.logIn(api, "ada@example.com", "battery staple").status == .ok)

                for used in [code, stale, "not-a-code", String(repeating: "A", count: 43)] {
                    let again = try await api.send(
                        .post, "/api/auth/reset", json: #"{"code": "\#(used)", "new": "another staple"}"#)
                    #expect(
                        again.status == .notFound && again.errorCode == "invalid_reset_code",
                        "\(again.body)")
                }
                #expect(try await Self.logIn(api, "ada@example.com", "another staple").status == .unauthorized)
                // Only a hash of the code is stored.
                let unknown = try await service.issueResetCode(email: "ada@example.com", now: now)
                #expect(try await server.store.resetCodeAccount(codeHash: unknown, at: now) == nil)
            }
        }
    }

    @Test(arguments: Engine.available) func aDisabledAccountsTokensAndSignInsAre403AndItsDataStays(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                let habit = try await api.send(.post, "/api/habits", token: ada, json: #"{"name": "Walk"}"#)
                #expect(habit.status == .created)
                let service = AccountService(database: server.store, hasher: UnusedHasher())
                try await service.setDisabled(email: "ada@example.com", true, now: Date())
                for path in ["/api/auth/me", "/api/habits", "/api/tokens", "/api/stats/summary"] {
                    let refused = try await api.send(.get, path, token: ada)
                    #expect(
                        refused.status == .forbidden && refused.errorCode == "account_disabled",
                        "\(path): \(refused.body)")
                }
                let update = try await api.dailyUpdate(ada, at: "2026-09-21T08:00:00Z")
                #expect(update.status == .forbidden && update.errorCode == "account_disabled", "\(update.body)")
                let signIn = try await Self.logIn(api, "ada@example.com")
                #expect(signIn.status == .forbidden && signIn.errorCode == "account_disabled")
                let wrong = try await Self.logIn(api, "ada@example.com", "wrong horse")
                #expect(wrong.status == .unauthorized)
                let summaries = try await service.accountList()
                #expect(summaries.map(\.disabled) == [false, true])
                #expect(summaries.last?.habits == 1)

                try await service.setDisabled(email: "ada@example.com", false, now: Date())
                let habits = try await api.send(.get, "/api/habits", token: ada)
                #expect(habits.status == .ok && habits.body.contains("Walk"))
                await #expect(throws: MorningProofError.self) {
                    try await service.setDisabled(email: "nobody@example.com", true, now: Date())
                }
            }
        }
    }
}

extension AccountRouteTests {
    @Test(arguments: Engine.available) func theOwnerGivenALoginSignsInAndSeesTheCLIsHabits(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken(zone: "UTC")
            try await server.run { api in
                let made = try await api.send(.post, "/api/habits", token: owner, json: #"{"name": "Make bed"}"#)
                #expect(made.status == .created)
                let before = try await AccountRouteTests.logIn(api, "me@example.com", "long enough pw")
                #expect(before.status == .unauthorized)
                let operatorService = OperatorAccounts.service(database: server.store, bcryptCost: 4)
                try await operatorService.setLogin(
                    accountID: AccountProfile.ownerID, email: "me@example.com", password: "long enough pw")
                let signIn = try await AccountRouteTests.logIn(api, "me@example.com", "long enough pw")
                let token = try #require(signIn.json["token"] as? String, "\(signIn.body)")
                let me = try await api.send(.get, "/api/auth/me", token: token)
                #expect(me.json["id"] as? Int == 1 && me.json["email"] as? String == "me@example.com")
                let habits = try await api.send(.get, "/api/habits", token: token)
                #expect(habits.body.contains("Make bed"))
                // Another account's email is refused (409), and changes nothing.
                _ = try await api.signUp("bo@example.com", timezone: "UTC")
                await #expect(throws: MorningProofError.self) {
                    try await operatorService.setLogin(
                        accountID: AccountProfile.ownerID, email: "BO@example.com", password: "long enough pw")
                }
                #expect(try await AccountRouteTests.logIn(api, "me@example.com", "long enough pw").status == .ok)
            }
        }
    }
}

/// A hasher for use cases that hash nothing (reset codes, disabling).
struct UnusedHasher: PasswordHasher {
    func hash(_ password: String) async throws -> String { "unused:" + password }
    func verify(_ password: String, hash: String) async throws -> Bool { hash == "unused:" + password }
}
