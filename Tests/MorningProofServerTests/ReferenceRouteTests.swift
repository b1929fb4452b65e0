import Foundation
import MorningProofTestSupport
import TestFixtures
import Testing

/// `/api/habits/{id}/references`: reference photos of the person's own made bed, and proofs judged
/// against them, on both engines.
@Suite("Reference photos over HTTP")
struct ReferenceRouteTests {
    @Test(arguments: Engine.available) func withAReferenceAnotherRoomIsRefusedAndTheSameRoomProves(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await ProofRouteTests().photoHabit(api)
            let references = "/api/habits/\(id)/references"
            let added = try await api.upload(
                references, token: token, at: "2026-11-17T20:00:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-3.jpg"))
            #expect(added.status == .created, "\(added.body)")
            #expect(added.json["number"] as? Int == 1 && added.json["width"] as? Int == 640)

            // A made bed, but another room: refused, nothing recorded.
            let proof = "/api/habits/\(id)/proof"
            let other = try await api.upload(
                proof, token: token, at: "2026-11-18T08:00:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-2.jpg"))
            #expect(other.status == .unprocessableContent && other.errorCode == "proof_refused", "\(other.body)")
            #expect(other.errorMessage.contains("this does not look like the bedroom in your reference photos"))
            let entries = try await api.send(
                .get, "/api/habits/\(id)/entries", token: token, at: "2026-11-18T09:00:00Z")
            #expect((entries.json["entries"] as? [Any])?.isEmpty == true)

            // A copy of the reference is a repeat; removing the reference lets any made bed prove the day.
            let copy = try await api.uploadForm(
                proof, token: token, at: "2026-11-18T08:10:00Z", photo: try Scenes.bytes("made-3.jpg"))
            #expect(copy.status == .unprocessableContent && copy.errorMessage.contains("repeats reference photo 1"))
            let listed = try await api.send(.get, references, token: token, at: "2026-11-18T08:20:00Z")
            #expect((listed.json["references"] as? [[String: Any]])?.count == 1 && listed.json["limit"] as? Int == 5)
            let removed = try await api.send(.delete, references + "/1", token: token, at: "2026-11-18T08:30:00Z")
            #expect(removed.status == .noContent)
            let gone = try await api.send(.delete, references + "/1", token: token, at: "2026-11-18T08:31:00Z")
            #expect(gone.status == .notFound)
            let proved = try await api.upload(
                proof, token: token, at: "2026-11-18T08:40:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-2.jpg"))
            #expect(proved.status == .created, "\(proved.body)")
        }
    }

    @Test(arguments: Engine.available) func anotherAccountsHabitIs404AndItsReferencesAreNeverShown(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let (ada, id) = try await ProofRouteTests().photoHabit(api)
            let references = "/api/habits/\(id)/references"
            let added = try await api.upload(
                references, token: ada, at: "2026-11-17T20:00:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-3.jpg"))
            #expect(added.status == .created)
            let bo = try await api.signUp("bo@example.com", timezone: "UTC")
            let read = try await api.send(.get, references, token: bo, at: "2026-11-18T08:00:00Z")
            #expect(read.status == .notFound)
            let upload = try await api.upload(
                references, token: bo, at: "2026-11-18T08:00:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-2.jpg"))
            #expect(upload.status == .notFound)
            let remove = try await api.send(.delete, references + "/1", token: bo, at: "2026-11-18T08:00:00Z")
            #expect(remove.status == .notFound)
            let still = try await api.send(.get, references, token: ada, at: "2026-11-18T08:00:00Z")
            #expect((still.json["references"] as? [Any])?.count == 1)
        }
    }
}
