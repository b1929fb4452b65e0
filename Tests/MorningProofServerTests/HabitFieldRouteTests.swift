import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

@Suite("A habit's schedule fields and period, clearing fields with null, and the habits' order over HTTP")
struct HabitFieldRouteTests {
    static let monday = "2026-11-23T07:00:00+03:00"
    static let thursday = "2026-11-26T07:00:00+03:00"

    @Test(arguments: Engine.available) func theScheduleComesAsRequestFieldsAndAPeriodAsTheServerCountsIt(
        engine: Engine
    ) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
                let gym = try await api.send(
                    .post, "/api/habits", token: ada, at: Self.monday,
                    json: #"{"name": "Gym", "times": 3, "per": "week"}"#)
                let id = try #require(gym.json["id"] as? Int)
                for day in ["2026-11-23", "2026-11-24"] {
                    let done = try await api.send(
                        .put, "/api/habits/\(id)/entries/\(day)", token: ada, at: Self.thursday,
                        json: #"{"status": "done"}"#)
                    #expect(done.status == .ok || done.status == .created, "\(done.body)")
                }
                let shown = try await api.send(.get, "/api/habits/\(id)", token: ada, at: Self.thursday).json
                #expect(shown["times"] as? Int == 3 && shown["per"] as? String == "week")
                #expect(shown["every"] == nil && shown["within"] == nil)
                let period = try #require(shown["period"] as? [String: Any])
                #expect(period["done"] as? Int == 2 && period["target"] as? Int == 3)
                #expect(period["start"] as? String == "2026-11-23" && period["end"] as? String == "2026-11-29")
                #expect(period["words"] as? String == "2 of 3 this week")
                // Status says the same, and a Sunday week start moves the week.
                let status = try await api.send(.get, "/api/status", token: ada, at: Self.thursday).json
                let item = try #require((status["habits"] as? [[String: Any]])?.first)
                #expect((item["period"] as? [String: Any])?["words"] as? String == "2 of 3 this week")
                #expect(item["schedule"] as? String == "3 times a week" && item["times"] as? Int == 3)
                _ = try await api.send(
                    .patch, "/api/auth/profile", token: ada, at: Self.thursday, json: #"{"weekStart": "sunday"}"#)
                let sunday = try await api.send(.get, "/api/habits/\(id)", token: ada, at: Self.thursday).json
                #expect((sunday["period"] as? [String: Any])?["start"] as? String == "2026-11-22")
                // Every other schedule round-trips through its fields; daily and every N days have no period.
                for (body, fields) in [
                    (#""every": 1"#, ["every": 1]), (#""every": 3"#, ["every": 3]),
                    (#""times": 2, "within": 10"#, ["times": 2, "within": 10]),
                ] as [(String, [String: Int])] {
                    let changed = try await api.send(
                        .patch, "/api/habits/\(id)", token: ada, at: Self.thursday, json: "{\(body)}"
                    ).json
                    for (key, value) in fields { #expect(changed[key] as? Int == value, "\(body): \(key)") }
                    #expect((changed["period"] == nil) == (fields["within"] == nil), "\(body)")
                }
            }
        }
    }

    @Test(arguments: Engine.available) func nullClearsAFieldAndAFieldLeftOutIsKept(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
                let made = try await api.send(
                    .post, "/api/habits", token: ada, at: Self.monday,
                    json:
                        #"{"name": "Walk", "remindAt": "07:30", "note": "outside", "metric": "steps", "atLeast": 8000}"#
                )
                let id = try #require(made.json["id"] as? Int)
                let path = "/api/habits/\(id)"
                // Left out: kept.
                let kept = try await api.send(.patch, path, token: ada, json: #"{"required": true}"#).json
                #expect(kept["remindAt"] as? String == "07:30" && kept["note"] as? String == "outside")
                #expect(kept["goal"] != nil)
                // A metric habit cannot lose its goal and stay a metric habit: refused, nothing changed.
                let refused = try await api.send(.patch, path, token: ada, json: #"{"metric": null, "remindAt": null}"#)
                #expect(
                    refused.status == .badRequest && refused.errorMessage.contains("needs a goal"), "\(refused.body)")
                #expect(try await api.send(.get, path, token: ada).json["remindAt"] as? String == "07:30")
                // null: cleared.
                let cleared = try await api.send(
                    .patch, path, token: ada,
                    json: #"{"remindAt": null, "note": null, "metric": null, "kind": "manual"}"#)
                #expect(cleared.status == .ok, "\(cleared.body)")
                #expect(cleared.json["remindAt"] == nil && cleared.json["note"] == nil && cleared.json["goal"] == nil)
                #expect(cleared.json["kind"] as? String == "manual" && cleared.json["required"] as? Bool == true)
                let again = try await api.send(.get, path, token: ada).json
                #expect(again["remindAt"] == nil && again["note"] == nil)
                // null where nothing can be cleared stays a type error.
                let bad = try await api.send(.patch, path, token: ada, json: #"{"required": null}"#)
                #expect(bad.status == .badRequest && bad.errorMessage.contains("\"required\""))
            }
        }
    }

    @Test(arguments: Engine.available) func theOrderIsSetOnceForEveryActiveHabit(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken(zone: "Europe/Istanbul")
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "Europe/Istanbul")
                var ids: [Int] = []
                for name in ["Walk", "Read", "Swim"] {
                    let made = try await api.send(
                        .post, "/api/habits", token: ada, at: Self.monday, json: "{\"name\": \"\(name)\"}")
                    ids.append(try #require(made.json["id"] as? Int))
                }
                let mine = try await api.send(
                    .post, "/api/habits", token: owner, at: Self.monday, json: #"{"name": "Owner's"}"#)
                let other = try #require(mine.json["id"] as? Int)
                func names(_ reply: Reply) -> [String] {
                    (reply.json["habits"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
                }
                let ordered = try await api.send(
                    .put, "/api/habits/order", token: ada, json: "{\"ids\": [\(ids[2]), \(ids[0]), \(ids[1])]}")
                #expect(ordered.status == .ok && names(ordered) == ["Swim", "Walk", "Read"], "\(ordered.body)")
                #expect(names(try await api.send(.get, "/api/habits", token: ada)) == ["Swim", "Walk", "Read"])
                #expect(names(try await api.send(.get, "/api/status", token: ada)) == ["Swim", "Walk", "Read"])

                for (body, status, words) in [
                    ("[\(ids[0]), \(ids[1])]", HTTPResponse.Status.unprocessableContent, "leaves out \"Swim\""),
                    ("[\(ids[0]), \(ids[1]), \(ids[2]), \(ids[0])]", .unprocessableContent, "listed twice"),
                    ("[\(ids[0]), \(ids[1]), \(ids[2]), \(other)]", .notFound, "no habit with id \(other)"),
                    ("[\(ids[0]), \"x\"]", .badRequest, "\"ids\""), ("7", .badRequest, "\"ids\""),
                ] {
                    let reply = try await api.send(.put, "/api/habits/order", token: ada, json: "{\"ids\": \(body)}")
                    #expect(reply.status == status && reply.errorMessage.contains(words), "\(body): \(reply.body)")
                    #expect(!reply.body.contains("Owner's"), "\(body)")
                }
                #expect(names(try await api.send(.get, "/api/habits", token: ada)) == ["Swim", "Walk", "Read"])
                #expect(try await api.send(.put, "/api/habits/order", json: "{\"ids\": []}").status == .unauthorized)
                // The path is the order's alone: another method is 405 naming PUT, not a habit's methods.
                let get = try await api.send(.get, "/api/habits/order", token: ada)
                #expect(get.status == .methodNotAllowed && get.headers[.allow] == "PUT", "\(get.headers)")
                #expect(try await api.send(.get, "/api/habits/\(ids[0])", token: ada).status == .ok)
            }
        }
    }
}
