import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

/// Issue 39: a habit that becomes a photo habit (`PATCH {"kind": "photo"}`) keeps the days done
/// before the change as they were (imports keep their history as it was; nothing a person entered is
/// judged again), and from the change on it is done only by a photo.
@Suite("A habit that becomes a photo habit keeps its days (issue 39)")
struct KindChangeRouteTests {
    static let morning = "2026-11-20T07:00:00Z"

    @Test(arguments: Engine.available) func daysDoneBeforeTheChangeStayAndPhotosProveTheRest(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let created = try await api.send(
                .post, "/api/habits", token: token, at: Self.morning,
                json: #"{"name": "Make bed", "startDay": "2026-11-17"}"#)
            let id = try #require(created.json["id"] as? Int)
            let entries = "/api/habits/\(id)/entries"
            for day in ["2026-11-17", "2026-11-18", "2026-11-19"] {
                let done = try await api.send(
                    .put, "\(entries)/\(day)", token: token, at: Self.morning, json: #"{"status": "done"}"#)
                #expect(done.status == .created, "\(day): \(done.body)")
            }
            let changed = try await api.send(
                .patch, "/api/habits/\(id)", token: token, at: Self.morning, json: #"{"kind": "photo"}"#)
            #expect(changed.status == .ok && changed.json["kind"] as? String == "photo", "\(changed.body)")

            // The three days stay done by hand, and the streak they make stands.
            let kept =
                try await api.send(.get, entries, token: token, at: Self.morning).json["entries"] as? [[String: Any]]
            #expect(
                kept?.map { "\($0["day"] ?? "") \($0["status"] ?? "") \($0["source"] ?? "")" } == [
                    "2026-11-17 done manual", "2026-11-18 done manual", "2026-11-19 done manual",
                ])
            let report = try await api.send(.get, "/api/habits/\(id)/report?weeks=1", token: token, at: Self.morning)
            #expect((report.json["habits"] as? [[String: Any]])?.first?["currentStreak"] as? Int == 3, "\(report.body)")

            // From the change on, a day is done only by a photo, today and earlier days alike.
            for day in ["today", "2026-11-19"] {
                let done = try await api.send(
                    .put, "\(entries)/\(day)", token: token, at: Self.morning, json: #"{"status": "done"}"#)
                #expect(done.status == .unprocessableContent && done.errorCode == "proof_required", "\(done.body)")
            }
            let proof = try await api.upload(
                "/api/habits/\(id)/proof", token: token, at: Self.morning, type: "image/jpeg",
                body: try Scenes.bytes("made-1.jpg"))
            #expect(proof.status == .created && proof.json["recorded"] as? Bool == true, "\(proof.body)")
        }
    }

    /// The round trip the attack found: photo -> manual, today done by hand, -> photo left today done
    /// without a photo; a check-in habit answered yes and then made a photo habit was done too. Today's
    /// done goes back to pending, days before today stay, and the answer says so.
    @Test(arguments: Engine.available) func todaysDoneThatNoPhotoProvedGoesBackToPending(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let created = try await api.send(
                .post, "/api/habits", token: token, at: Self.morning,
                json: #"{"name": "Make bed", "kind": "manual", "startDay": "2026-11-19"}"#)
            let id = try #require(created.json["id"] as? Int)
            let entries = "/api/habits/\(id)/entries"
            for day in ["2026-11-19", "today"] {
                let done = try await api.send(
                    .put, "\(entries)/\(day)", token: token, at: Self.morning, json: #"{"status": "done"}"#)
                #expect(done.status == .created, "\(day): \(done.body)")
            }
            let changed = try await api.send(
                .patch, "/api/habits/\(id)", token: token, at: Self.morning, json: #"{"kind": "photo"}"#)
            #expect(changed.status == .ok, "\(changed.body)")
            #expect(changed.json["notice"] as? String == "today's done was not a photo: take one", "\(changed.body)")
            let kept =
                try await api.send(.get, entries, token: token, at: Self.morning).json["entries"] as? [[String: Any]]
            #expect(kept?.map { "\($0["day"] ?? "") \($0["status"] ?? "")" } == ["2026-11-19 done"], "\(kept ?? [])")

            // A check-in habit answered yes today, then made a photo habit: not done today.
            _ = try await api.send(
                .post, "/api/checkin/setup", token: token, at: Self.morning, json: #"{"preset": "faith"}"#)
            let yes = try await api.send(
                .post, "/api/checkin", token: token, at: Self.morning, json: #"{"answer": "yes"}"#)
            #expect(yes.status == .ok || yes.status == .created, "\(yes.body)")
            let habits = try await api.send(.get, "/api/habits", token: token, at: Self.morning)
            let checkin = try #require(
                (habits.json["habits"] as? [[String: Any]])?.first { $0["kind"] as? String == "checkin" }?["id"] as? Int
            )
            let photo = try await api.send(
                .patch, "/api/habits/\(checkin)", token: token, at: Self.morning, json: #"{"kind": "photo"}"#)
            #expect(photo.status == .ok && photo.json["notice"] as? String != nil, "\(photo.body)")
            let today = try await api.send(
                .get, "/api/habits/\(checkin)/entries?from=today&to=today", token: token, at: Self.morning)
            #expect((today.json["entries"] as? [Any])?.isEmpty == true, "\(today.body)")
            // A change that reopens nothing says nothing.
            let again = try await api.send(
                .patch, "/api/habits/\(id)", token: token, at: Self.morning, json: #"{"remindAt": "07:30"}"#)
            #expect(again.status == .ok && again.json["notice"] == nil, "\(again.body)")
        }
    }
}
