import Foundation
import MorningProofTestSupport
import Testing

/// Issue 39 over HTTP: a required habit's skip spends an excuse, and with none left it is refused
/// with a code; status names the excuses left and the day the next comes back.
@Suite("Excuses over HTTP")
struct ExcuseRouteTests {
    /// Ada in Berlin with "Make bed" (required), made on Monday 16 November 2026 and skipped on
    /// Wednesday 18 and Thursday 19: both excuses of the week spent. Her token and the habit's id.
    func skippedTwice(_ api: TestAPI) async throws -> (token: String, id: Int) {
        let token = try await api.signUp("ada@example.com", timezone: "Europe/Berlin")
        let created = try await api.send(
            .post, "/api/habits", token: token, at: "2026-11-16T07:00:00+01:00",
            json: #"{"name": "Make bed", "required": true}"#)
        let id = try #require(created.json["id"] as? Int)
        for morning in ["2026-11-18T07:00:00+01:00", "2026-11-19T07:00:00+01:00"] {
            let skipped = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: token, at: morning, json: #"{"status": "skipped"}"#)
            #expect(skipped.status == .created, "\(skipped.body)")
        }
        return (token, id)
    }

    @Test(arguments: Engine.available) func aThirdRequiredSkipIsRefusedAndStatusCountsTheExcuses(
        engine: Engine
    ) async throws {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await skippedTwice(api)
            let friday = "2026-11-20T07:00:00+01:00"
            let refused = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: token, at: friday, json: #"{"status": "skipped"}"#)
            #expect(
                refused.status == .unprocessableContent && refused.errorCode == "no_excuses_left", "\(refused.body)")
            #expect(refused.errorMessage == "No excuses left this week; the next comes back on Wednesday")
            let status = try await api.send(.get, "/api/status", token: token, at: friday)
            #expect(status.json["excusesLeft"] as? Int == 0)
            #expect(status.json["excuseBackOn"] as? String == "2026-11-25")
            let habits = try #require(status.json["habits"] as? [[String: Any]])
            #expect(habits.first?["state"] as? String == "pending")
        }
    }

    @Test(arguments: Engine.available) func aSkipOfAnEarlierDayCannotTakeALaterWeeksExcuse(engine: Engine) async throws
    {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await skippedTwice(api)
            // Thursday: the week ending on Tuesday 17 (11 to 17 November) has both excuses left, but the
            // week from Friday 13 to Thursday 19 holds Tuesday too and has spent both.
            let thursday = "2026-11-19T07:30:00+01:00"
            let refused = try await api.send(
                .put, "/api/habits/\(id)/entries/2026-11-17", token: token, at: thursday,
                json: #"{"status": "skipped"}"#)
            #expect(
                refused.status == .unprocessableContent && refused.errorCode == "no_excuses_left", "\(refused.body)")
            #expect(
                refused.errorMessage
                    == "No excuses left for 2026-11-17: the 7 days from 2026-11-13 to 2026-11-19 have spent all 2 excuses already"
            )
            let entries = try await api.send(
                .get, "/api/habits/\(id)/entries?from=2026-11-17&to=2026-11-17", token: token)
            #expect((entries.json["entries"] as? [Any])?.isEmpty == true, "\(entries.body)")
            let status = try await api.send(.get, "/api/status", token: token, at: thursday)
            #expect(status.json["excusesLeft"] as? Int == 0, "\(status.body)")
        }
    }
}
