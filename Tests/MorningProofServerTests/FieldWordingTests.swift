import Foundation
import HTTPTypes
import MorningProofTestSupport
import TestFixtures
import Testing

@Suite("An API error names the JSON field, never a CLI option")
struct FieldWordingTests {
    /// The refused request's answer: `status`, an error that names `field` as JSON does, and no word of
    /// the CLI (an option such as `--every`, a `morningproof` command).
    func expectRefused(
        _ api: TestAPI, _ method: HTTPRequest.Method, _ path: String, token: String, json: String? = nil,
        naming field: String, status: HTTPResponse.Status = .badRequest
    ) async throws {
        let reply = try await api.send(method, path, token: token, at: "2026-11-20T07:00:00Z", json: json)
        let message = reply.errorMessage
        let context = "\(method) \(path) \(json ?? ""): \(reply.status) \(message)"
        #expect(reply.status == status, "\(context)")
        #expect(message.contains("\"\(field)\""), "\(context)")
        #expect(message.firstMatch(of: /--[a-z]/) == nil, "\(context)")
        #expect(!message.contains("morningproof "), "\(context)")
    }

    @Test(arguments: Engine.available) func habitDetailsNameTheirFields(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let long = String(repeating: "a", count: 1_001)
            for (body, field) in [
                (#""every": 3, "times": 2"#, "every"), (#""per": "week""#, "times"),
                (#""times": 8, "per": "week""#, "per"), (#""times": 32, "per": "month""#, "times"),
                (#""times": 5, "within": 4"#, "times"), (#""times": 3"#, "within"),
                (#""times": 3, "per": "fortnight""#, "per"), (#""times": 3, "per": "week", "within": 9"#, "within"),
                (#""remindAt": "25:00""#, "remindAt"), (#""note": "\#(long)""#, "note"),
                (#""note": "a\u001bb""#, "note"), (#""kind": "metric""#, "metric"), (#""atLeast": 5"#, "metric"),
                (#""metric": "steps""#, "atLeast"), (#""metric": "steps", "atLeast": 1, "atMost": 2"#, "atMost"),
                (#""metric": "steps", "atLeast": 1, "activity": "running""#, "activity"),
                (#""kind": "photo", "metric": "steps", "atLeast": 1"#, "kind"),
            ] {
                try await expectRefused(
                    api, .post, "/api/habits", token: ada, json: #"{"name": "Run", \#(body)}"#, naming: field)
            }
            try await expectRefused(
                api, .post, "/api/habits", token: ada, json: #"{"name": "Run\u001b"}"#, naming: "name")

            let created = try await api.send(
                .post, "/api/habits", token: ada, at: "2026-11-18T07:00:00Z", json: #"{"name": "Read"}"#)
            let id = try #require(created.json["id"] as? Int)
            let habit = "/api/habits/\(id)"
            try await expectRefused(api, .patch, habit, token: ada, json: #"{"name": "a\u007f"}"#, naming: "name")
            try await expectRefused(
                api, .patch, habit, token: ada, json: #"{"every": 2, "per": "week"}"#, naming: "every")
            try await expectRefused(
                api, .put, habit + "/entries/today", token: ada, json: #"{"status": "done", "note": "\#(long)"}"#,
                naming: "note")
            try await expectRefused(api, .get, habit + "/report?weeks=0", token: ada, naming: "weeks")
            try await expectRefused(
                api, .get, habit + "/report?from=2026-11-20&to=2026-11-19", token: ada, naming: "from")
            try await expectRefused(api, .get, habit + "/chart.svg?weeks=521", token: ada, naming: "weeks")
            try await expectRefused(
                api, .post, "/api/checkin/setup", token: ada, json: #"{"question": " "}"#, naming: "question")
            try await expectRefused(
                api, .post, "/api/checkin/setup", token: ada,
                json: #"{"question": "\#(String(repeating: "q", count: 501))"}"#,
                naming: "question")

            // A photo over the server's pixel limit, for a photo habit: refused before decoding, with no
            // option to raise it.
            let bed = try await api.send(
                .post, "/api/habits", token: ada, json: #"{"name": "Make bed", "kind": "photo"}"#)
            let bedID = try #require(bed.json["id"] as? Int)
            let huge = try await api.upload(
                "/api/habits/\(bedID)/proof", token: ada, at: "2026-11-20T07:00:00Z", type: "image/jpeg",
                body: try Data(contentsOf: SampleImages.url("broken/huge-60000.jpg")))
            #expect(huge.status == .badRequest && huge.errorCode == "bad_image", "\(huge.body)")
            #expect(huge.errorMessage.hasSuffix("pixels; refused before decoding"), "\(huge.errorMessage)")
            // A photo for a habit of another kind: the proof needs a photo habit, said without `--habit`.
            let proof = try await api.upload(
                habit + "/proof", token: ada, at: "2026-11-20T07:00:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-1.jpg"))
            #expect(proof.status == .unprocessableContent && proof.errorCode == "not_a_photo_habit", "\(proof.body)")
            #expect(proof.errorMessage == "Read is a manual habit; a photo proof needs a habit of kind photo")
            // The API's delete needs no confirmation, so no error asks for one.
            #expect(try await api.send(.delete, habit, token: ada).status == .noContent)
        }
    }
}
