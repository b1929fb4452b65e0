import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

@Suite("Habits and their days over HTTP, on the CLI's rules")
struct HabitRouteTests {
    @Test(arguments: Engine.available) func habitsAreCreatedShownChangedAndRemovedPerAccount(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken(zone: "Europe/Istanbul")
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
                let at = "2026-11-20T07:00:00+03:00"
                let created = try await api.send(
                    .post, "/api/habits", token: ada, at: at,
                    json:
                        #"{"name": "Walk", "metric": "steps", "atLeast": 8000, "remindAt": "07:30", "required": true}"#)
                #expect(created.status == .created, "\(created.body)")
                let id = try #require(created.json["id"] as? Int)
                #expect(created.json["kind"] as? String == "metric")
                #expect((created.json["goal"] as? [String: Any])?["target"] as? Double == 8000)
                #expect(created.json["createdDay"] as? String == "2026-11-20")
                #expect(created.json["state"] as? String == "pending")

                // Names are unique per account in any case; another account may use the same.
                let taken = try await api.send(.post, "/api/habits", token: ada, at: at, json: #"{"name": "walk"}"#)
                #expect(taken.status == .conflict && taken.errorCode == "conflict")
                #expect(
                    try await api.send(.post, "/api/habits", token: owner, at: at, json: #"{"name": "Walk"}"#).status
                        == .created)

                let every = try await api.send(
                    .patch, "/api/habits/\(id)", token: ada, at: at, json: #"{"name": "Long walk", "every": 2}"#)
                #expect(every.status == .ok && every.json["name"] as? String == "Long walk")
                #expect(every.json["schedule"] as? String == "every 2 days")
                let archived = try await api.send(.patch, "/api/habits/\(id)", token: ada, json: #"{"archived": true}"#)
                #expect(archived.json["archived"] as? Bool == true)
                #expect((try await api.send(.get, "/api/habits", token: ada).json["habits"] as? [Any])?.count == 0)
                #expect(
                    (try await api.send(.get, "/api/habits?archived=true", token: ada).json["habits"] as? [Any])?.count
                        == 1)

                // Another account's id is 404 to read, change, record or remove.
                for (method, path, body) in [
                    (.get, "/api/habits/\(id)", nil), (.patch, "/api/habits/\(id)", #"{"note": "mine"}"#),
                    (.delete, "/api/habits/\(id)", nil),
                    (.put, "/api/habits/\(id)/entries/today", #"{"status": "done"}"#),
                    (.get, "/api/habits/\(id)/entries", nil),
                ] as [(HTTPRequest.Method, String, String?)] {
                    let reply = try await api.send(method, path, token: owner, json: body)
                    #expect(reply.status == .notFound, "\(method) \(path): \(reply.status)")
                }
                #expect(try await api.send(.delete, "/api/habits/\(id)", token: ada).status == .noContent)
                #expect(try await api.send(.get, "/api/habits/\(id)", token: ada).status == .notFound)
                await #expect(try await server.habits { try await $0.habits().map(\.name) } == ["Walk"])
            }
        }
    }

    @Test(arguments: Engine.available) func badDetailsAreRefusedWithTheRuleAndStoreNothing(engine: Engine) async throws
    {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                for body in [
                    #"{"name": ""}"#, #"{"name": "Run", "kind": "walking"}"#, #"{"name": "Run", "kind": "metric"}"#,
                    #"{"name": "Run", "metric": "stepz", "atLeast": 1}"#, #"{"name": "Run", "every": 0}"#,
                    #"{"name": "Run", "every": 1.5}"#, #"{"name": "Run", "times": 3, "per": "fortnight"}"#,
                    #"{"name": "Run", "remindAt": "25:00"}"#, #"{"name": "Run", "required": "yes"}"#,
                    #"{"name": "Run\u001b[31m"}"#, #"{"name": "Run", "colour": "red"}"#, #"{"kind": "manual"}"#,
                ] {
                    let reply = try await api.send(.post, "/api/habits", token: ada, json: body)
                    #expect(reply.status == .badRequest, "\(body): \(reply.status) \(reply.body)")
                }
                await #expect(try await server.habits(of: 2) { try await $0.habits(includeArchived: true) }.isEmpty)
            }
        }
    }

    @Test(arguments: Engine.available) func daysAreRecordedOnTheServersDayForTheAccount(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "America/New_York")
            let created = try await api.send(
                .post, "/api/habits", token: ada, at: "2026-03-06T09:00:00-05:00", json: #"{"name": "Read"}"#)
            let id = try #require(created.json["id"] as? Int)
            // New York springs forward on 2026-03-08, a 23-hour day; 23:30 that night is still the 8th.
            for (instant, day) in [
                ("2026-03-06T23:30:00-05:00", "2026-03-06"), ("2026-03-07T23:30:00-05:00", "2026-03-07"),
                ("2026-03-08T23:30:00-04:00", "2026-03-08"),
            ] {
                let reply = try await api.send(
                    .put, "/api/habits/\(id)/entries/today", token: ada, at: instant, json: #"{"status": "done"}"#)
                #expect(reply.status == .created, "\(instant): \(reply.body)")
                #expect(reply.json["day"] as? String == day)
            }
            let at = "2026-03-09T06:00:00-04:00"
            let again = try await api.send(
                .put, "/api/habits/\(id)/entries/yesterday", token: ada, at: at, json: #"{"status": "done"}"#)
            #expect(again.status == .ok && again.json["result"] as? String == "unchanged")
            #expect((again.json["habit"] as? [String: Any])?["currentStreak"] as? Int == 3)
            let skipped = try await api.send(
                .put, "/api/habits/\(id)/entries/2026-03-08", token: ada, at: at,
                json: #"{"status": "skipped", "note": "sick"}"#)
            #expect(skipped.status == .ok && skipped.json["result"] as? String == "replaced")
            #expect((skipped.json["entry"] as? [String: Any])?["note"] as? String == "sick")

            let future = try await api.send(
                .put, "/api/habits/\(id)/entries/2026-03-10", token: ada, at: at, json: #"{"status": "done"}"#)
            #expect(future.status == .unprocessableContent && future.errorCode == "future_day")
            let before = try await api.send(
                .put, "/api/habits/\(id)/entries/2026-03-01", token: ada, at: at, json: #"{"status": "done"}"#)
            #expect(before.status == .unprocessableContent && before.errorCode == "before_habit")
            for (day, body) in [
                ("2026-13-01", #"{"status": "done"}"#), ("today", #"{"status": "finished"}"#), ("today", "{}"),
            ] {
                let bad = try await api.send(.put, "/api/habits/\(id)/entries/\(day)", token: ada, at: at, json: body)
                #expect(bad.status == .badRequest, "\(day) \(body)")
            }

            let entries = try await api.send(
                .get, "/api/habits/\(id)/entries?from=2026-03-07&to=2026-03-08", token: ada, at: at)
            let days = (entries.json["entries"] as? [[String: Any]])?.compactMap { $0["day"] as? String }
            #expect(days == ["2026-03-07", "2026-03-08"])
            let backwards = try await api.send(
                .get, "/api/habits/\(id)/entries?from=2026-03-08&to=2026-03-07", token: ada)
            #expect(backwards.status == .ok && (backwards.json["entries"] as? [Any])?.isEmpty == true)
            #expect(try await api.send(.get, "/api/habits/\(id)/entries?from=March", token: ada).status == .badRequest)

            let undone = try await api.send(.delete, "/api/habits/\(id)/entries/2026-03-07", token: ada, at: at)
            #expect(undone.status == .ok && undone.json["result"] as? String == "cleared")
            let nothing = try await api.send(.delete, "/api/habits/\(id)/entries/2026-03-07", token: ada, at: at)
            #expect(nothing.json["result"] as? String == "nothing to clear")
        }
    }

    @Test(arguments: Engine.available) func aFourOClockDayStartAndATripMoveTheDayAsTheCLIDoes(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "America/Los_Angeles")
            try await api.setZone(ada, "America/Los_Angeles", at: "2026-06-01T08:00:00-07:00", dayStart: "04:00")
            let created = try await api.send(
                .post, "/api/habits", token: ada, at: "2026-06-01T08:00:00-07:00", json: #"{"name": "Stretch"}"#)
            let id = try #require(created.json["id"] as? Int)
            // 01:30 with a 04:00 day start is still the day before.
            let late = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: ada, at: "2026-06-02T01:30:00-07:00",
                json: #"{"status": "done"}"#)
            #expect(late.json["day"] as? String == "2026-06-01")
            // Los Angeles to Tokyo: the next local day there is the 3rd; the travel day bridges the streak.
            try await api.setZone(ada, "Asia/Tokyo", at: "2026-06-02T20:00:00-07:00")
            let tokyo = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: ada, at: "2026-06-03T21:00:00+09:00",
                json: #"{"status": "done"}"#)
            #expect(tokyo.json["day"] as? String == "2026-06-03")
            #expect((tokyo.json["habit"] as? [String: Any])?["currentStreak"] as? Int == 2)
        }
    }
}

@Suite("A metric habit's value today over HTTP")
struct MetricTodayRouteTests {
    @Test(arguments: Engine.available) func theOwnersMetricsShowAndAnotherAccountNeverReadsThem(engine: Engine)
        async throws
    {
        try await TestServer.with(engine, file: true) { server in
            let owner = try await server.ownerToken(zone: "UTC")
            // 6,500 steps on 2026-11-20 from the owner's phone export.
            try await server.storeOwnerExportTotal(
                MetricAggregateRow(
                    metric: "steps", day: LocalDay("2026-11-20")!, source: "Phone", value: 6500, count: 1))
            try await server.run { api in
                let at = "2026-11-20T18:00:00Z"
                let walk = #"{"name": "Walk", "metric": "steps", "atLeast": 8000}"#
                let mine = try await api.send(.post, "/api/habits", token: owner, at: at, json: walk)
                #expect(mine.json["todayValue"] as? Double == 6500)
                #expect(mine.json["todayText"] as? String == "6,500 steps")
                let other = try await api.signUp("bo@example.com", timezone: "UTC")
                let theirs = try await api.send(.post, "/api/habits", token: other, at: at, json: walk)
                #expect(theirs.status == .created)
                #expect(theirs.json["todayValue"] == nil && theirs.json["todayText"] == nil)
                let next = try await api.send(.get, "/api/habits", token: owner, at: "2026-11-21T08:00:00Z")
                let habit = (next.json["habits"] as? [[String: Any]])?.first
                #expect(habit?["todayValue"] == nil)
            }
            let day = LocalDay("2026-11-20")!
            await #expect(
                try await server.habits(of: 2) { try await $0.metricValue(metric: "steps", day: day, activity: nil) } == nil)
            await #expect(try await server.habits { try await $0.metricValue(metric: "steps", day: day, activity: nil) } == 6500)
        }
    }
}
