import Foundation
import MorningProofTestSupport
import TestFixtures
import Testing

/// Issue 39: a photo straight from a phone is never refused for its format. An iPhone's HEIC and
/// Android's WebP prove the day through the API as a JPEG does, sent as their own type, as bytes of a
/// type the browser did not know, or in a form.
@Suite("HEIC and WebP proofs over HTTP")
struct PhoneFormatProofTests {
    static func phone(_ name: String) throws -> Data { try Data(contentsOf: SampleImages.url("phone/\(name)")) }

    @Test(arguments: Engine.available) func anIPhonesHEICAndAWebPProveTheDay(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let (token, id) = try await ProofRouteTests().photoHabit(api)
            let path = "/api/habits/\(id)/proof"
            // A WebP whose EXIF chunk says 2026-11-18 07:45 +01:00 proves the 18th.
            let webp = try await api.upload(
                path, token: token, at: "2026-11-18T08:00:00Z", type: "image/webp",
                body: try Self.phone("made-2-exif-2026-11-18.webp"))
            #expect(webp.status == .created, "\(webp.body)")
            #expect(webp.json["made"] as? Bool == true && webp.json["day"] as? String == "2026-11-18")
            // The same picture as HEIC cannot prove the 20th: its Exif block says the 18th.
            let old = try await api.upload(
                path, token: token, at: "2026-11-20T08:00:00Z", type: "image/heic",
                body: try Self.phone("made-2-exif-2026-11-18.heic"))
            #expect(old.status == .unprocessableContent && old.errorCode == "proof_refused", "\(old.body)")
            // An iPhone's HEIC of a made bed proves the 19th.
            let heic = try await api.upload(
                path, token: token, at: "2026-11-19T08:00:00Z", type: "image/heic", body: try Self.phone("made-1.heic"))
            #expect(heic.status == .created, "\(heic.body)")
            // Bytes whose type the browser did not know are read by their content: an unmade bed is a verdict.
            let unknown = try await api.upload(
                path, token: token, at: "2026-11-20T08:05:00Z", type: "application/octet-stream",
                body: try Self.phone("unmade-1.heic"))
            #expect(unknown.status == .ok && unknown.json["made"] as? Bool == false, "\(unknown.body)")
            // A form's WebP of an unmade bed, as image/heif: judged, nothing recorded.
            let form = try await api.uploadForm(
                path, token: token, at: "2026-11-20T08:10:00Z", photo: try Self.phone("unmade-1.webp"))
            #expect(form.status == .ok && form.json["recorded"] as? Bool == false, "\(form.body)")
            // A cut HEIC and a WebP claiming 100000x100000 are bad images, not a 500.
            let cut = try await api.upload(
                path, token: token, at: "2026-11-20T08:15:00Z", type: "image/heif",
                body: try Data(contentsOf: SampleImages.url("broken/truncated.heic")))
            #expect(cut.status == .badRequest && cut.errorCode == "bad_image", "\(cut.body)")
            let huge = try await api.upload(
                path, token: token, at: "2026-11-20T08:20:00Z", type: "image/webp",
                body: try Data(contentsOf: SampleImages.url("broken/huge-100000.webp")))
            #expect(huge.status == .badRequest && huge.errorMessage.contains("100000x100000"), "\(huge.body)")
            let entries = try await api.send(
                .get, "/api/habits/\(id)/entries", token: token, at: "2026-11-20T09:00:00Z")
            #expect((entries.json["entries"] as? [Any])?.count == 2)
        }
    }
}
