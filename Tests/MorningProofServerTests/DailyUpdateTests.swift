import Foundation
import Hummingbird
import MorningProofTestSupport
import Testing

@Suite("The seed's check-in API: summary and daily update, on the server's day")
struct DailyUpdateTests {
    @Test(arguments: Engine.available) func withoutAZoneBothAre404(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com")
            for reply in [
                try await api.summary(token, at: "2026-03-08T12:00:00Z"),
                try await api.dailyUpdate(token, at: "2026-03-08T12:00:00Z"),
            ] {
                #expect(reply.status == .notFound)
                #expect(reply.errorCode == "no_timezone")
                #expect(reply.errorMessage.hasPrefix("complete onboarding first"))
            }
        }
    }

    @Test(arguments: Engine.available) func theSummaryLeavesOutTodayUntilThereIsAnUpdate(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
            let before = try await api.summary(token, at: "2026-03-08T22:30:00Z")  // 01:30 on the 9th
            #expect(before.status == .ok)
            #expect(
                before.body == #"{"currentStreak":0,"day":"2026-03-09","longestStreak":0,"timezone":"Europe/Istanbul"}"#
            )

            let update = try await api.dailyUpdate(
                token, at: "2026-03-08T22:30:00Z",
                json: #"{"metrics": {"weight": 71.5, "steps": 9000, "tags": ["a"]}, "score": 7}"#)
            #expect(update.status == .ok)
            #expect(
                update.body
                    == #"{"date":"2026-03-09","metrics":{"steps":9000,"tags":["a"],"weight":71.5},"recordedAt":"2026-03-09T01:30:00+03:00","score":7}"#
            )
            let after = try await api.summary(token, at: "2026-03-09T10:00:00Z")
            #expect(after.json["currentStreak"] as? Int == 1)
            #expect(after.json["longestStreak"] as? Int == 1)
            let today = try #require(after.json["today"] as? [String: Any])
            #expect(today["date"] as? String == "2026-03-09")
            #expect(today["score"] as? Double == 7)
        }
    }

    @Test(arguments: Engine.available) func theSecondUpdateOfALocalDayIs409(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "America/New_York")
            #expect(try await api.dailyUpdate(token, at: "2026-03-10T06:00:00-04:00").status == .ok)
            let again = try await api.dailyUpdate(token, at: "2026-03-10T23:59:00-04:00", json: #"{"metrics": {}}"#)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "already_completed")
            #expect(again.errorMessage == "Daily check-in already completed")
            #expect(try await api.dailyUpdate(token, at: "2026-03-11T00:00:00-04:00").status == .ok)
        }
    }

    @Test(arguments: Engine.available) func theServerDecidesTheDay(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let dated = try await api.dailyUpdate(
                token, at: "2026-03-10T12:00:00Z", json: #"{"metrics": {}, "date": "2026-03-01"}"#)
            #expect(dated.status == .badRequest)
            #expect(dated.errorMessage.contains("the server decides the day"))
            for body in [
                #"{}"#, #"{"metrics": []}"#, #"{"metrics": "good"}"#, #"{"metrics": {}, "score": "7"}"#,
                #"{"metrics": {}, "score": null}"#, #"{"metrics": {}, "day": "today"}"#,
            ] {
                #expect(
                    try await api.dailyUpdate(token, at: "2026-03-10T12:00:00Z", json: body).status == .badRequest,
                    "\(body)")
            }
            // Nothing was stored by the refused requests.
            #expect(try await api.summary(token, at: "2026-03-10T12:00:00Z").json["today"] == nil)
        }
    }

    @Test(arguments: Engine.available) func streaksCountConsecutiveLocalDays(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            for day in ["01", "02", "03", "05", "06"] {
                #expect(try await api.dailyUpdate(token, at: "2026-03-\(day)T08:00:00Z").status == .ok)
            }
            // Today (the 7th) is still open: it does not break the streak.
            let open = try await api.summary(token, at: "2026-03-07T08:00:00Z").json
            #expect(open["currentStreak"] as? Int == 2)
            #expect(open["longestStreak"] as? Int == 3)
            // An empty past day does.
            let broken = try await api.summary(token, at: "2026-03-08T08:00:00Z").json
            #expect(broken["currentStreak"] as? Int == 0)
            #expect(broken["longestStreak"] as? Int == 3)
        }
    }

    @Test(arguments: Engine.available) func accountsDoNotSeeEachOthersUpdates(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let bob = try await api.signUp("bob@example.com", timezone: "UTC")
            #expect(try await api.dailyUpdate(ada, at: "2026-03-10T08:00:00Z").status == .ok)
            let summary = try await api.summary(bob, at: "2026-03-10T09:00:00Z").json
            #expect(summary["today"] == nil)
            #expect(summary["currentStreak"] as? Int == 0)
            #expect(try await api.dailyUpdate(bob, at: "2026-03-10T09:00:00Z").status == .ok)
        }
    }

    @Test(arguments: Engine.available) func twentySimultaneousDuplicatesGiveOne200(engine: Engine) async throws {
        try await TestServer.with(engine, file: true) { server in
            try await server.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "Asia/Tokyo")
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for n in 0..<20 {
                        group.addTask {
                            try await api.dailyUpdate(token, at: "2026-03-10T0\(n % 10):00:00+09:00").status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .ok }.count == 1)
                #expect(statuses.filter { $0 == .conflict }.count == 19)
            }
        }
    }

    /// The daily update gates its body on a token found valid lately, and writes only if the token
    /// is still valid: one signed out a moment ago stores nothing, and a stranger gets 401.
    @Test(arguments: Engine.available) func aTokenSignedOutAMomentAgoRecordsNothing(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            #expect(try await api.dailyUpdate(token, at: "2026-03-08T12:00:00Z").status == .ok)
            #expect(try await api.send(.post, "/api/auth/logout", token: token).status == .noContent)
            let after = try await api.dailyUpdate(token, at: "2026-03-09T12:00:00Z")
            #expect(after.status == .unauthorized)
            let stranger = try await api.dailyUpdate(String(repeating: "x", count: 40), at: "2026-03-09T12:00:00Z")
            #expect(stranger.status == .unauthorized)
            let other = try await api.signUp("bob@example.com", timezone: "UTC")
            let summary = try await api.summary(other, at: "2026-03-09T13:00:00Z")
            #expect(summary.json["currentStreak"] as? Int == 0)
        }
    }
}
