import Foundation
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

@Suite("The routine over HTTP: the daily question, the quote, tokens for scripts")
struct RoutineRouteTests {
    @Test(arguments: Engine.available) func theDailyQuestionIsAskedAnsweredAndAskedAgainOnTheNextLocalDay(
        engine: Engine
    ) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "America/New_York")
            let morning = "2026-11-20T07:30:00-05:00"
            #expect(
                try await api.send(.get, "/api/checkin", token: token, at: morning).json["configured"] as? Bool == false
            )
            let none = try await api.send(.post, "/api/checkin", token: token, at: morning, json: #"{"answer": "yes"}"#)
            #expect(none.status == .notFound && none.errorCode == "no_checkin")

            let setup = try await api.send(
                .post, "/api/checkin/setup", token: token, at: morning, json: #"{"preset": "faith"}"#)
            #expect(setup.status == .created)
            #expect(setup.json["question"] as? String == "Have you spent time with God today?")
            #expect(
                try await api.send(.post, "/api/checkin/setup", token: token, at: morning, json: "{}").status == .ok)

            let asked = try await api.send(.get, "/api/checkin", token: token, at: morning)
            #expect(asked.json["shouldAsk"] as? Bool == true)
            #expect(asked.json["day"] as? String == "2026-11-20")
            #expect((asked.json["verse"] as? String)?.contains("Matthew 6:33") == true)
            #expect((asked.json["suggestions"] as? [String])?.first == "Read a chapter from the Bible")
            #expect(asked.body.contains("\"answer\":null"))

            let no = try await api.send(.post, "/api/checkin", token: token, at: morning, json: #"{"answer": "no"}"#)
            #expect(no.json["answer"] as? String == "no" && no.json["result"] as? String == "answered")
            let blocked = try await api.send(.get, "/api/checkin", token: token, at: "2026-11-20T12:00:00-05:00")
            #expect(blocked.json["answer"] as? String == "no" && blocked.json["shouldAsk"] as? Bool == false)
            let yes = try await api.send(.post, "/api/checkin", token: token, at: morning, json: #"{"answer": "yes"}"#)
            #expect(yes.json["result"] as? String == "changed to yes")
            #expect(yes.json["currentStreak"] as? Int == 1)
            let stands = try await api.send(
                .post, "/api/checkin", token: token, at: morning, json: #"{"answer": "no"}"#)
            #expect(stands.json["result"] as? String == "yes stands" && stands.json["answer"] as? String == "yes")

            // 23:59 in New York is still the 20th; a minute after midnight the question comes back.
            let late = try await api.send(.get, "/api/checkin", token: token, at: "2026-11-20T23:59:00-05:00")
            #expect(late.json["shouldAsk"] as? Bool == false)
            let next = try await api.send(.get, "/api/checkin", token: token, at: "2026-11-21T00:01:00-05:00")
            #expect(next.json["day"] as? String == "2026-11-21" && next.json["shouldAsk"] as? Bool == true)
            #expect(next.json["currentStreak"] as? Int == 1)
        }
    }

    @Test(arguments: Engine.available) func eachAccountHasItsOwnCheckinAndAnAccountWithoutAZoneIsToldToFinishOnboarding(
        engine: Engine
    ) async throws {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken(zone: "Asia/Tokyo")
            try await server.run { api in
                let other = try await api.signUp("bo@example.com", timezone: "Asia/Tokyo")
                let at = "2026-11-20T08:00:00+09:00"
                #expect(
                    try await api.send(.post, "/api/checkin/setup", token: other, at: at, json: "{}").status == .created
                )
                #expect(
                    try await api.send(.post, "/api/checkin", token: other, at: at, json: #"{"answer": "yes"}"#).status
                        == .ok)
                // The owner (the CLI's data) sees none of it.
                #expect(
                    try await api.send(.get, "/api/checkin", token: owner, at: at).json["configured"] as? Bool == false)
                await #expect(try await server.habits { try await $0.habits() }.isEmpty)
                await #expect(try await server.habits(of: 2) { try await $0.habits().map(\.name) } == [CheckinService.habitName])

                let zoneless = try await api.signUp("cy@example.com")
                let reply = try await api.send(.get, "/api/checkin", token: zoneless, at: at)
                #expect(reply.status == .notFound)
                #expect(reply.errorMessage.contains("complete onboarding first"))
            }
        }
    }

    @Test(arguments: Engine.available) func badAnswersAndPresetsAreRefusedAndChangeNothing(engine: Engine) async throws
    {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "UTC")
                for body in [
                    #"{"answer": "maybe"}"#, #"{"answer": true}"#, "{}", #"{"answer": "yes", "day": "2026-11-19"}"#,
                    "[]",
                ] {
                    let reply = try await api.send(.post, "/api/checkin", token: token, json: body)
                    #expect(reply.status == .badRequest, "\(body)")
                }
                for body in [#"{"preset": "stoic"}"#, #"{"question": ""}"#, #"{"question": 7}"#] {
                    let reply = try await api.send(.post, "/api/checkin/setup", token: token, json: body)
                    #expect(reply.status == .badRequest, "\(body): \(reply.body)")
                }
                await #expect(try await server.habits(of: 2) { try await $0.habits() }.isEmpty)
                #expect(try await api.send(.get, "/api/checkin").status == .unauthorized)
            }
        }
    }

    @Test(arguments: Engine.available) func theDayCanBeStartedOverOnlyWhenTheServerAllowsTheClockHeader(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let at = "2026-11-20T07:00:00Z"
            _ = try await api.send(.post, "/api/checkin/setup", token: token, at: at, json: "{}")
            _ = try await api.send(.post, "/api/checkin", token: token, at: at, json: #"{"answer": "no"}"#)
            let reset = try await api.send(.delete, "/api/checkin/today", token: token, at: at)
            #expect(reset.status == .ok && reset.json["cleared"] as? String == "no")
            #expect(try await api.send(.get, "/api/checkin", token: token, at: at).json["shouldAsk"] as? Bool == true)
        }
        try await TestServer.with(engine) { closed in
            var closed = closed
            closed.configuration.allowClockHeader = false
            try await closed.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "UTC")
                #expect(try await api.send(.delete, "/api/checkin/today", token: token).status == .notFound)
            }
        }
    }

    @Test(arguments: Engine.available) func answeringOrStartingOverWithoutACheckinIs404NoCheckin(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let at = "2026-11-20T07:00:00Z"
            for reply in [
                try await api.send(.post, "/api/checkin", token: token, at: at, json: #"{"answer": "yes"}"#),
                try await api.send(.delete, "/api/checkin/today", token: token, at: at),
            ] {
                #expect(reply.status == .notFound && reply.errorCode == "no_checkin")
                #expect(reply.errorMessage == "no check-in is set up yet: POST /api/checkin/setup first")
            }
            #expect(try await api.send(.get, "/api/checkin", token: token, at: at).json["configured"] as? Bool == false)
        }
    }

    @Test(arguments: Engine.available) func theQuoteOfTheMomentIsTheCLIsAndChangesWithTheWindow(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
                let clock = DayClock(zoneIdentifier: "Europe/Istanbul")!
                let book = try await server.habits { try await QuoteSource.load($0) }
                for text in ["2026-11-20T08:02:00+03:00", "2026-11-20T08:05:10+03:00", "2026-11-20T08:07:00+03:00"] {
                    let reply = try await api.send(.get, "/api/quote", token: token, at: text)
                    let expected = QuoteMomentJSON(at: ISOInstant.parse(text)!, book: book, clock: clock)
                    #expect(reply.json["text"] as? String == expected.quote.text, "\(text)")
                    #expect(reply.json["inGrace"] as? Bool == expected.inGrace)
                    #expect(reply.json["window"] as? Int == expected.quote.window)
                }
                let grace = try await api.send(.get, "/api/quote", token: token, at: "2026-11-20T08:05:10+03:00")
                #expect(grace.json["inGrace"] as? Bool == true && grace.json["window"] as? Int == 96)
                let history = try await api.send(
                    .get, "/api/quote/history", token: token, at: "2026-11-20T00:12:00+03:00")
                #expect(history.json["date"] as? String == "2026-11-20")
                #expect((history.json["windows"] as? [Any])?.count == 3)
                let future = try await api.send(
                    .get, "/api/quote/history?date=2026-11-21", token: token, at: "2026-11-20T00:12:00+03:00")
                #expect(future.status == .badRequest)
            }
        }
    }

    @Test(arguments: Engine.available) func tokensForScriptsAreTheAccountsToCreateListAndRevoke(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let bo = try await api.signUp("bo@example.com", timezone: "UTC")
            let created = try await api.send(.post, "/api/tokens", token: ada, json: #"{"name": "backup script"}"#)
            #expect(created.status == .created)
            let script = try #require(created.json["token"] as? String)
            let id = try #require(created.json["id"] as? Int)
            #expect(
                try await api.send(.get, "/api/auth/me", token: script).json["email"] as? String == "ada@example.com")
            let list = try await api.send(.get, "/api/tokens", token: ada)
            let names = (list.json["tokens"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names?.contains("backup script") == true)
            #expect(!list.body.contains(script))
            #expect(try await api.send(.delete, "/api/tokens/\(id)", token: bo).status == .notFound)
            #expect(try await api.send(.delete, "/api/tokens/nope", token: ada).status == .notFound)
            #expect(try await api.send(.post, "/api/tokens", token: ada, json: #"{"name": ""}"#).status == .badRequest)
            #expect(try await api.send(.delete, "/api/tokens/\(id)", token: ada).status == .noContent)
            #expect(try await api.send(.get, "/api/auth/me", token: script).status == .unauthorized)
        }
    }
}
