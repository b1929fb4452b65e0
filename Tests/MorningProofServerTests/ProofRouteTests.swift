import Foundation
import HTTPTypes
import Hummingbird
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import TestFixtures
import Testing

/// The committed bed scenes (scripts/make-scenes).
enum Scenes {
    static func bytes(_ name: String) throws -> Data { try Data(contentsOf: SampleImages.url("scenes/\(name)")) }
}

extension TestAPI {
    /// Uploads `body` as it is, with `type` as its Content-Type.
    func upload(_ path: String, token: String, at now: String, type: String, body: Data) async throws -> Reply {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: type]
        headers[HTTPField.Name("X-MorningProof-Now")!] = now
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            Reply(status: $0.status, headers: $0.headers, bytes: Array(buffer: $0.body))
        }
    }

    /// Uploads a photo as a phone's form does: multipart/form-data with one file part.
    func uploadForm(_ path: String, token: String, at now: String, photo: Data) async throws -> Reply {
        let boundary = "----morningproof-test-boundary"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nmorning\r\n".utf8)
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"bed.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                .utf8)
        body += photo
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return try await upload(
            path, token: token, at: now, type: "multipart/form-data; boundary=\(boundary)", body: body)
    }
}

@Suite("Photo proofs, status and reports over HTTP")
struct ProofRouteTests {
    /// An account in UTC with a photo habit created on 2026-11-17; returns its token and the habit's id.
    func photoHabit(_ api: TestAPI) async throws -> (String, Int) {
        let token = try await api.signUp("ada@example.com", timezone: "UTC")
        let created = try await api.send(
            .post, "/api/habits", token: token, at: "2026-11-17T07:00:00Z",
            json: #"{"name": "Make bed", "kind": "photo"}"#)
        return (token, try #require(created.json["id"] as? Int))
    }

    @Test(arguments: Engine.available) func aMadeBedPhotoProvesTheDayAndARepeatOnAnotherDayIsRefused(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await photoHabit(api)
            let path = "/api/habits/\(id)/proof"
            let made = try await api.upload(
                path, token: token, at: "2026-11-18T08:00:00Z", type: "image/jpeg", body: try Scenes.bytes("made-1.jpg")
            )
            #expect(made.status == .created, "\(made.body)")
            #expect(made.json["made"] as? Bool == true && made.json["recorded"] as? Bool == true)
            #expect(made.json["day"] as? String == "2026-11-18")
            #expect((made.json["habit"] as? [String: Any])?["state"] as? String == "done")
            #expect(!(made.json["reasons"] as? [String] ?? []).isEmpty)

            // The same photo again the next day is refused, with the reason; nothing is recorded.
            let repeatPhoto = try await api.upload(
                path, token: token, at: "2026-11-19T08:00:00Z", type: "image/jpeg", body: try Scenes.bytes("made-1.jpg")
            )
            #expect(repeatPhoto.status == .unprocessableContent && repeatPhoto.errorCode == "proof_refused")
            #expect(repeatPhoto.errorMessage.contains("2026-11-18"))
            let entries = try await api.send(
                .get, "/api/habits/\(id)/entries", token: token, at: "2026-11-19T09:00:00Z")
            #expect((entries.json["entries"] as? [Any])?.count == 1)

            // A photo taken on another day (its EXIF says 2026-11-18) cannot prove the 20th.
            let old = try await api.upload(
                path, token: token, at: "2026-11-20T08:00:00Z", type: "image/jpeg",
                body: try Scenes.bytes("made-2-exif-2026-11-18.jpg"))
            #expect(old.status == .unprocessableContent, "\(old.body)")

            // An unmade bed is a verdict, not an error: 200, nothing recorded.
            let unmade = try await api.uploadForm(
                path, token: token, at: "2026-11-20T08:05:00Z", photo: try Scenes.bytes("unmade-1.jpg"))
            #expect(unmade.status == .ok && unmade.json["made"] as? Bool == false)
            #expect(unmade.json["recorded"] as? Bool == false)
            // A phone's form upload of a made bed proves the day.
            let form = try await api.uploadForm(
                path, token: token, at: "2026-11-20T08:10:00Z", photo: try Scenes.bytes("made-3.jpg"))
            #expect(form.status == .created, "\(form.body)")
        }
    }

    /// Issue 23: a uniform black 1000x750 JPEG was "201, made, confidence 0.97", and a block pattern
    /// varied daily passed six days running. Both are a not-made verdict now, and prove nothing.
    @Test(arguments: Engine.available) func aBlackPictureOrABlockPatternProvesNothing(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await photoHabit(api)
            let path = "/api/habits/\(id)/proof"
            let pictures = SampleImages.url("not-photos")
            let black = try await api.upload(
                path, token: token, at: "2026-11-18T08:00:00Z", type: "image/jpeg",
                body: try Data(contentsOf: pictures.appendingPathComponent("black.jpg")))
            #expect(black.status == .ok, "\(black.body)")
            #expect(black.json["made"] as? Bool == false && black.json["recorded"] as? Bool == false)
            let reasons = black.json["reasons"] as? [String] ?? []
            #expect(reasons.first?.hasPrefix("not a photo of a room: the picture is nearly uniform") == true)
            for (day, name) in [(19, "blocks-8.jpg"), (20, "blocks-50.jpg")] {
                let blocks = try await api.uploadForm(
                    path, token: token, at: "2026-11-\(day)T08:00:00Z",
                    photo: try Data(contentsOf: pictures.appendingPathComponent(name)))
                #expect(blocks.status == .ok && blocks.json["made"] as? Bool == false, "\(name): \(blocks.body)")
            }
            let entries = try await api.send(
                .get, "/api/habits/\(id)/entries", token: token, at: "2026-11-20T09:00:00Z")
            #expect((entries.json["entries"] as? [Any])?.count == 0)
        }
    }

    @Test(arguments: Engine.available) func whatIsNotAPhotoOrTooBigOrForAnotherHabitIsRefused(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await photoHabit(api)
            let path = "/api/habits/\(id)/proof"
            let at = "2026-11-18T08:00:00Z"
            let text = try await api.upload(path, token: token, at: at, type: "image/jpeg", body: Data("hello".utf8))
            #expect(text.status == .badRequest && text.errorCode == "bad_image")
            let truncated = try Scenes.bytes("made-1.jpg").prefix(2000)
            #expect(
                try await api.upload(path, token: token, at: at, type: "image/jpeg", body: Data(truncated)).status
                    == .badRequest)
            let pdf = try await api.upload(path, token: token, at: at, type: "application/pdf", body: Data("%PDF".utf8))
            #expect(pdf.status == .unsupportedMediaType)
            let noFile = try await api.upload(
                path, token: token, at: at, type: "multipart/form-data; boundary=x",
                body: Data("--x\r\n\r\nhi\r\n--x--\r\n".utf8))
            #expect(noFile.status == .badRequest)
            let huge = Data(count: 25 * 1024 * 1024 + 1)
            let tooBig = try await api.upload(path, token: token, at: at, type: "image/jpeg", body: huge)
            #expect(tooBig.status == .contentTooLarge && tooBig.errorCode == "payload_too_large")

            let manual = try await api.send(.post, "/api/habits", token: token, at: at, json: #"{"name": "Read"}"#)
            let readID = try #require(manual.json["id"] as? Int)
            let wrongKind = try await api.upload(
                "/api/habits/\(readID)/proof", token: token, at: at, type: "image/jpeg",
                body: try Scenes.bytes("made-1.jpg"))
            #expect(wrongKind.status == .unprocessableContent && wrongKind.errorCode == "not_a_photo_habit")
            let other = try await api.signUp("bo@example.com", timezone: "UTC")
            let notTheirs = try await api.upload(
                path, token: other, at: at, type: "image/jpeg", body: try Scenes.bytes("made-1.jpg"))
            #expect(notTheirs.status == .notFound)
            // The habit is checked before the photo is decoded (an outsider's attack: a 38-byte WebP that
            // decodes to 50 megapixels cost 2.3 s of CPU each, then 404): bytes that are no photo
            // at all get the habit's refusal, not bad_image.
            let notAPhotoToAnother = try await api.upload(
                path, token: other, at: at, type: "image/jpeg", body: Data("hello".utf8))
            #expect(notAPhotoToAnother.status == .notFound, "\(notAPhotoToAnother.errorCode ?? "")")
            let notAPhotoToRead = try await api.upload(
                "/api/habits/\(readID)/proof", token: token, at: at, type: "image/jpeg", body: Data("hello".utf8))
            #expect(notAPhotoToRead.errorCode == "not_a_photo_habit")
            let entries = try await api.send(.get, "/api/habits/\(id)/entries", token: token, at: at)
            #expect((entries.json["entries"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: Engine.available) func statusAndReportAreTheCLIsJSON(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            try await server.run { api in
                let token = try await api.signUp("ada@example.com", timezone: "UTC")
                let created = try await api.send(
                    .post, "/api/habits", token: token, at: "2026-11-10T07:00:00Z", json: #"{"name": "Read"}"#)
                let id = try #require(created.json["id"] as? Int)
                for day in ["2026-11-10", "2026-11-11", "2026-11-13"] {
                    _ = try await api.send(
                        .put, "/api/habits/\(id)/entries/\(day)", token: token, at: "2026-11-13T20:00:00Z",
                        json: #"{"status": "done"}"#)
                }
                let at = "2026-11-14T07:00:00Z"
                let now = ISOInstant.parse(at)!
                let clock = DayClock(zoneIdentifier: "UTC")!
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                // What the CLI's status and report print for the same account, read from the same store.
                let (expectedStatus, expectedReport) = try await server.habits(of: 2) { account in
                    let reports = ReportService(database: account, clock: clock)
                    return await (
                        try encoder.encode(StatusJSON(try reports.status(now: now))),
                        try encoder.encode(
                            ReportJSON(
                                try reports.report(habits: [try account.habit(id: Int64(id))!], weeks: 2, now: now)))
                    )
                }

                let status = try await api.send(.get, "/api/status", token: token, at: at)
                #expect(status.body == String(decoding: expectedStatus, as: UTF8.self))
                #expect(status.json["day"] as? String == "2026-11-14")

                let report = try await api.send(.get, "/api/habits/\(id)/report?weeks=2", token: token, at: at)
                #expect(report.body == String(decoding: expectedReport, as: UTF8.self))
                let habit = (report.json["habits"] as? [[String: Any]])?.first
                #expect(habit?["longestStreak"] as? Int == 2 && habit?["totalDone"] as? Int == 3)
                #expect(
                    try await api.send(.get, "/api/habits/\(id)/report?weeks=0", token: token, at: at).status
                        == .badRequest)
                #expect(try await api.send(.get, "/api/habits/999/report", token: token, at: at).status == .notFound)
            }
        }
    }
}

@Suite("The habit's chart over HTTP")
struct ChartRouteTests {
    @Test(arguments: Engine.available) func theChartIsTheReportsPicture(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let created = try await api.send(
                .post, "/api/habits", token: token, at: "2026-11-01T08:00:00Z", json: #"{"name": "Run"}"#)
            let id = try #require(created.json["id"] as? Int)
            _ = try await api.send(
                .put, "/api/habits/\(id)/entries/today", token: token, at: "2026-11-01T09:00:00Z",
                json: #"{"status": "done"}"#)
            let chart = try await api.send(
                .get, "/api/habits/\(id)/chart.svg?theme=dark", token: token, at: "2026-11-02T08:00:00Z")
            #expect(chart.status == .ok && chart.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(chart.body.hasPrefix("<svg") && chart.body.contains(#"class="done""#))
            #expect(
                try await api.send(.get, "/api/habits/\(id)/chart.svg?theme=pink", token: token).status == .badRequest)
            #expect(try await api.send(.get, "/api/habits/\(id)/chart.svg?weeks=0", token: token).status == .badRequest)
            #expect(try await api.send(.get, "/api/habits/99/chart.svg", token: token).status == .notFound)
        }
    }
}
