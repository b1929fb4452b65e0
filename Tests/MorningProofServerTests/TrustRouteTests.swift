import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

/// Issue 39 over HTTP, on both engines: a photo habit is done only by a photo, and a habit's first
/// day can be set in the past when it is made (never a photo habit's).
@Suite("A photo habit needs its photo; a habit's first day (issue 39)")
struct TrustRouteTests {
    static let morning = "2026-11-20T07:00:00Z"

    @Test(arguments: Engine.available) func aPhotoHabitIsNotDoneByHandButSkipUndoAndItsPhotoStay(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let created = try await api.send(
                .post, "/api/habits", token: token, at: Self.morning, json: #"{"name": "Make bed", "kind": "photo"}"#)
            let id = try #require(created.json["id"] as? Int)
            let entries = "/api/habits/\(id)/entries"

            let done = try await api.send(
                .put, "\(entries)/today", token: token, at: Self.morning, json: #"{"status": "done"}"#)
            #expect(
                done.status == .unprocessableContent && done.errorCode == "proof_required",
                "\(done.status) \(done.body)")
            #expect(done.errorMessage.contains("POST /api/habits/\(id)/proof"), "\(done.errorMessage)")
            #expect(
                (try await api.send(.get, entries, token: token, at: Self.morning).json["entries"] as? [Any])?.isEmpty
                    == true)

            let skipped = try await api.send(
                .put, "\(entries)/today", token: token, at: Self.morning, json: #"{"status": "skipped"}"#)
            #expect(skipped.status == .created, "\(skipped.body)")
            #expect(try await api.send(.delete, "\(entries)/today", token: token, at: Self.morning).status == .ok)

            // The photo proves it, as before.
            let proof = try await api.upload(
                "/api/habits/\(id)/proof", token: token, at: Self.morning, type: "image/jpeg",
                body: try Scenes.bytes("made-1.jpg"))
            #expect(proof.status == .created && proof.json["recorded"] as? Bool == true, "\(proof.body)")
        }
    }

    @Test(arguments: Engine.available) func aHabitsFirstDayCanBeSetInThePastButNotForAPhotoHabit(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let read = try await api.send(
                .post, "/api/habits", token: token, at: Self.morning,
                json: #"{"name": "Read", "startDay": "2026-11-02"}"#)
            #expect(read.status == .created, "\(read.body)")
            #expect(read.json["createdDay"] as? String == "2026-11-02")
            let id = try #require(read.json["id"] as? Int)
            for day in ["2026-11-02", "2026-11-03", "2026-11-19"] {
                let entry = try await api.send(
                    .put, "/api/habits/\(id)/entries/\(day)", token: token, at: Self.morning,
                    json: #"{"status": "done"}"#)
                #expect(entry.status == .created, "\(day): \(entry.body)")
            }
            let early = try await api.send(
                .put, "/api/habits/\(id)/entries/2026-11-01", token: token, at: Self.morning,
                json: #"{"status": "done"}"#)
            #expect(early.errorCode == "before_habit", "\(early.body)")

            let refused: [(String, HTTPResponse.Status, String)] = [
                (
                    #"{"name": "Make bed", "kind": "photo", "startDay": "2026-11-02"}"#, .unprocessableContent,
                    "proof_required"
                ),
                (#"{"name": "Run", "startDay": "2026-11-21"}"#, .unprocessableContent, "future_day"),
                (#"{"name": "Run", "startDay": "2026-02-30"}"#, .badRequest, "bad_request"),
                (#"{"name": "Run", "startDay": "last week"}"#, .badRequest, "bad_request"),
                (#"{"name": "Run", "startDay": 20261102}"#, .badRequest, "bad_request"),
            ]
            for (body, status, code) in refused {
                let reply = try await api.send(.post, "/api/habits", token: token, at: Self.morning, json: body)
                #expect(reply.status == status && reply.errorCode == code, "\(body): \(reply.status) \(reply.body)")
                #expect(reply.errorMessage.contains("\"startDay\""), "\(body): \(reply.errorMessage)")
            }
            let habits = try await api.send(.get, "/api/habits", token: token, at: Self.morning)
            #expect((habits.json["habits"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Read"])
        }
    }
}
