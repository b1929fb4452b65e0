import Foundation
import TestFixtures
import Testing

/// Issue 39: `verify` judges and records an iPhone's HEIC and a WebP as it does a JPEG, and refuses a
/// broken one with exit 65 and the reason.
@Suite struct PhoneFormatVerifyTests {
    static func phone(_ name: String) -> String { SampleImages.path("phone/\(name)") }

    @Test func heicAndWebPAreJudgedAndRecorded() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let judged = try cli.run(["verify", Self.phone("made-1.heic"), Self.phone("unmade-1.webp")])
        #expect(judged.status == 1, "\(judged.stdout)\(judged.stderr)")
        #expect(judged.stdout.contains("made-1.heic: made (confidence"), "\(judged.stdout)")
        #expect(judged.stdout.contains("unmade-1.webp: not made"), "\(judged.stdout)")

        try cli.run(["habit", "add", "Make bed", "--kind", "photo"], now: "2026-11-17T07:00:00Z")
        let webp = try cli.run(
            ["verify", "--habit", "Make bed", Self.phone("made-2-exif-2026-11-18.webp")], now: "2026-11-18T08:00:00Z")
        #expect(webp.status == 0, "\(webp.stdout)\(webp.stderr)")
        #expect(webp.stdout.contains("Make bed: recorded 2026-11-18 as done by photo"), "\(webp.stdout)")
        #expect(!webp.stdout.contains("no capture time"), "\(webp.stdout)")
        let heic = try cli.run(
            ["verify", "--habit", "Make bed", Self.phone("made-1.heic")], now: "2026-11-19T08:00:00Z")
        #expect(heic.status == 0, "\(heic.stdout)\(heic.stderr)")
        #expect(heic.stdout.contains("current streak 2 days"), "\(heic.stdout)")

        let cut = try cli.run(["verify", SampleImages.path("broken/truncated.heic")])
        #expect(cut.status == 65)
        #expect(cut.stdout.contains("HEIC data ends early"), "\(cut.stdout)")
        let huge = try cli.run(["image", "info", SampleImages.path("broken/huge-100000.webp")])
        #expect(huge.status == 65)
        #expect(huge.stderr.contains("claims 100000x100000"), "\(huge.stderr)")
    }
}
