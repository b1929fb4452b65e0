import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofTestSupport
import Testing

@Suite("Actions a phone recorded offline, sent with their instant; a travel day over HTTP")
struct OfflineRouteTests {
    /// Ada, signed up in Istanbul, with a habit "Walk" created on 2026-11-20: her token and its id.
    func adaWithAHabit(_ api: TestAPI) async throws -> (token: String, id: Int) {
        let ada = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
        let created = try await api.send(
            .post, "/api/habits", token: ada, at: "2026-11-20T07:00:00+03:00", json: #"{"name": "Walk"}"#)
        return (ada, try #require(created.json["id"] as? Int, "\(created.body)"))
    }

    /// How many days of habit `id` are stored.
    func storedDays(_ api: TestAPI, _ token: String, _ id: Int) async throws -> Int? {
        let days = try await api.send(.get, "/api/habits/\(id)/entries", token: token, at: "2026-11-21T09:00:00+03:00")
        return (days.json["entries"] as? [Any])?.count
    }

    @Test(arguments: Engine.available) func theLaterActionWinsAndTheLoserIsToldSo(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, id) = try await adaWithAHabit(api)
            let path = "/api/habits/\(id)/entries/today"
            let online = "2026-11-21T09:00:00+03:00"
            func put(_ body: String) async throws -> Reply {
                try await api.send(.put, path, token: ada, at: online, json: body)
            }

            let done = try await put(#"{"status": "done", "at": "2026-11-21T08:00:00+03:00"}"#)
            #expect(done.status == .created && done.json["result"] as? String == "recorded", "\(done.body)")
            #expect((done.json["entry"] as? [String: Any])?["recordedAt"] as? String == "2026-11-21T08:00:00+03:00")
            // The laptop skipped it at 07:30, offline: its skip arrives later and loses.
            let skip = try await put(#"{"status": "skipped", "at": "2026-11-21T07:30:00+03:00"}"#)
            #expect(skip.status == .ok && skip.json["result"] as? String == "superseded", "\(skip.body)")
            #expect((skip.json["entry"] as? [String: Any])?["status"] as? String == "done")
            #expect(skip.json["day"] as? String == "2026-11-21")

            // An undo from before the done does not clear it; one after it (written in UTC) does.
            let oldUndo = try await api.send(.delete, path + "?at=2026-11-21T07:45:00%2B03:00", token: ada, at: online)
            #expect(oldUndo.status == .ok && oldUndo.json["result"] as? String == "superseded", "\(oldUndo.body)")
            #expect((oldUndo.json["entry"] as? [String: Any])?["status"] as? String == "done")
            // A "+" left unencoded in the query reads as the offset, not as a space.
            let plainPlus = try await api.send(.delete, path + "?at=2026-11-21T07:40:00+03:00", token: ada, at: online)
            #expect(plainPlus.json["result"] as? String == "superseded", "\(plainPlus.body)")
            let undo = try await api.send(.delete, path + "?at=2026-11-21T05:50:00Z", token: ada, at: online)
            #expect(undo.json["result"] as? String == "cleared" && undo.json["entry"] == nil, "\(undo.body)")
            let retry = try await api.send(.delete, path + "?at=2026-11-21T05:50:00Z", token: ada, at: online)
            #expect(retry.json["result"] as? String == "nothing to clear", "\(retry.body)")
            // A done from before that undo, sent after it, does not bring the day back.
            let late = try await put(#"{"status": "done", "at": "2026-11-21T08:30:00+03:00"}"#)
            #expect(late.json["result"] as? String == "superseded" && late.json["entry"] == nil, "\(late.body)")
            #expect(try await storedDays(api, ada, id) == 0)
        }
    }

    @Test(arguments: Engine.available) func badOrFutureInstantsAreRefusedAndStoreNothing(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, id) = try await adaWithAHabit(api)
            let path = "/api/habits/\(id)/entries/today"
            let online = "2026-11-21T09:00:00+03:00"
            let future = try await api.send(
                .put, path, token: ada, at: online, json: #"{"status": "done", "at": "2026-11-21T09:30:00+03:00"}"#)
            #expect(future.status == .unprocessableContent && future.errorCode == "future_instant", "\(future.body)")
            for at in [#""yesterday""#, #""2026-11-21T08:00:00""#, "1700000000", "null"] {
                let reply = try await api.send(
                    .put, path, token: ada, at: online, json: #"{"status": "done", "at": \#(at)}"#)
                #expect(reply.status == .badRequest, "\(at): \(reply.status) \(reply.body)")
            }
            let badUndo = try await api.send(.delete, path + "?at=soon", token: ada, at: online)
            #expect(badUndo.status == .badRequest, "\(badUndo.body)")
            let futureUndo = try await api.send(.delete, path + "?at=2026-11-22T09:00:00Z", token: ada, at: online)
            #expect(futureUndo.status == .unprocessableContent && futureUndo.errorCode == "future_instant")
            #expect(try await storedDays(api, ada, id) == 0)
        }
    }

    /// `at` as the spec's `ActionInstant` pattern allows it (issue 38): a leap second, more than six
    /// fraction digits (20,000 were taken) and an offset without its colon were accepted; now 400,
    /// naming the field, from a body, a check-in and an undo's query alike, and nothing stored.
    @Test(arguments: Engine.available) func instantsOutsideTheSpecsPatternAre400(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, id) = try await adaWithAHabit(api)
            let path = "/api/habits/\(id)/entries/today"
            let online = "2026-11-21T09:00:00+03:00"
            _ = try await api.send(.post, "/api/checkin/setup", token: ada, at: "2026-11-20T07:00:00+03:00", json: "{}")
            let refused = [
                "2026-11-21T05:59:60Z", "2026-11-21T05:59:00." + String(repeating: "1", count: 20_000) + "Z",
                "2026-11-21T08:00:00.1234567+03:00", "2026-11-21T08:00:00-0000", "2026-11-21T08:00:00,5Z",
                "1900-06-01T00:00:00Z",
            ]
            for at in refused {
                let shown = at.prefix(40)
                for reply in [
                    try await api.send(
                        .put, path, token: ada, at: online, json: #"{"status": "done", "at": "\#(at)"}"#),
                    try await api.send(
                        .post, "/api/checkin", token: ada, at: online, json: #"{"answer": "yes", "at": "\#(at)"}"#),
                ] + (at.count < 100 ? [try await api.send(.delete, path + "?at=" + at, token: ada, at: online)] : []) {
                    #expect(reply.status == .badRequest, "\(shown): \(reply.status) \(reply.body)")
                    #expect(reply.errorMessage.contains("\"at\""), "\(shown): \(reply.body)")
                    #expect(reply.body.count < 500, "\(shown): the answer does not echo the whole value")
                }
            }
            #expect(try await storedDays(api, ada, id) == 0)
            // What the pattern allows still counts: six fraction digits, -00:00, minutes only.
            for at in ["2026-11-21T05:59:00.123456Z", "2026-11-21T05:59:00-00:00", "2026-11-21T05:59Z"] {
                let reply = try await api.send(
                    .put, path, token: ada, at: online, json: #"{"status": "done", "at": "\#(at)"}"#)
                #expect(reply.status == .created || reply.status == .ok, "\(at): \(reply.status) \(reply.body)")
            }
        }
    }

    @Test(arguments: Engine.available) func todayIsTheDayOfTheInstantNotOfTheArrival(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, id) = try await adaWithAHabit(api)
            // Done at 23:59, sent at 00:05: it counts for the day before.
            let late = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: ada, at: "2026-11-22T00:05:00+03:00",
                json: #"{"status": "done", "at": "2026-11-21T23:59:00+03:00"}"#)
            #expect(late.status == .created && late.json["day"] as? String == "2026-11-21", "\(late.body)")
            let status = try await api.send(.get, "/api/status", token: ada, at: "2026-11-22T00:05:00+03:00")
            #expect(status.json["day"] as? String == "2026-11-22")
        }
    }

    @Test(arguments: Engine.available) func theCheckinAnswerTakesItsInstant(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
            let online = "2026-11-21T09:00:00+03:00"
            _ = try await api.send(.post, "/api/checkin/setup", token: ada, at: "2026-11-20T07:00:00+03:00", json: "{}")
            let no = try await api.send(
                .post, "/api/checkin", token: ada, at: online,
                json: #"{"answer": "no", "at": "2026-11-21T08:00:00+03:00"}"#)
            #expect(no.status == .ok && no.json["result"] as? String == "answered", "\(no.body)")
            let earlier = try await api.send(
                .post, "/api/checkin", token: ada, at: online,
                json: #"{"answer": "yes", "at": "2026-11-21T07:00:00+03:00"}"#)
            #expect(earlier.json["result"] as? String == "superseded" && earlier.json["answer"] as? String == "no")
            // Answered at 23:50 the evening before, sent now: yesterday's answer.
            let lastNight = try await api.send(
                .post, "/api/checkin", token: ada, at: online,
                json: #"{"answer": "yes", "at": "2026-11-20T23:50:00+03:00"}"#)
            #expect(lastNight.json["day"] as? String == "2026-11-20" && lastNight.json["answer"] as? String == "yes")
            let future = try await api.send(
                .post, "/api/checkin", token: ada, at: online,
                json: #"{"answer": "yes", "at": "2026-11-21T10:00:00+03:00"}"#)
            #expect(future.status == .unprocessableContent && future.errorCode == "future_instant")
        }
    }

    @Test(arguments: Engine.available) func aTravelDayReadsTravelAndStillTakesDone(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (ada, id) = try await adaWithAHabit(api)
            // The web app opened in Tokyo: the account's zone changes, today is a travel day.
            try await api.setZone(ada, "Asia/Tokyo", at: "2026-11-21T08:00:00+09:00")
            let status = try await api.send(.get, "/api/status", token: ada, at: "2026-11-21T08:05:00+09:00")
            let walk = try #require((status.json["habits"] as? [[String: Any]])?.first, "\(status.body)")
            #expect(walk["state"] as? String == "travel")
            #expect(walk["stateSentence"] as? String == "travel day: your streak is safe")
            let habit = try await api.send(.get, "/api/habits/\(id)", token: ada, at: "2026-11-21T08:05:00+09:00")
            #expect(habit.json["state"] as? String == "travel")

            let done = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: ada, at: "2026-11-21T08:10:00+09:00",
                json: #"{"status": "done"}"#)
            #expect(done.status == .created, "\(done.body)")
            let after = try await api.send(.get, "/api/status", token: ada, at: "2026-11-21T08:15:00+09:00")
            let walked = try #require((after.json["habits"] as? [[String: Any]])?.first)
            #expect(walked["state"] as? String == "done" && walked["stateSentence"] == nil)
        }
    }
}
