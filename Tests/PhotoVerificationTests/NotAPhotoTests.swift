import Foundation
import Testing

@testable import PhotoVerification

/// Pictures no camera takes of a room, drawn in the test: flat colours, noise, flat colour blocks,
/// gradients and a screenshot-like page. Seeded, so every run draws the same pixels.
enum DrawnPictures {
    static func draw(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Raster {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                let offset = (y * width + x) * 3
                pixels[offset] = r
                pixels[offset + 1] = g
                pixels[offset + 2] = b
            }
        }
        return Raster(width: width, height: height, pixels: pixels)
    }

    static func uniform(_ value: UInt8) -> Raster { draw(1000, 750) { _, _ in (value, value, value) } }

    static func noise(seed: UInt64) -> Raster {
        var random = SplitMix64(seed: seed)
        return draw(320, 240) { _, _ in
            (
                .random(in: 0...255, using: &random), .random(in: 0...255, using: &random),
                .random(in: 0...255, using: &random)
            )
        }
    }

    /// Flat blocks of random colours, `size` pixels square: a new pattern every day.
    static func blocks(size: Int, seed: UInt64) -> Raster {
        var random = SplitMix64(seed: seed)
        let columns = 1000 / size + 1
        let colours = (0..<(columns * (750 / size + 1))).map { _ in
            (
                UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                UInt8.random(in: 0...255, using: &random)
            )
        }
        return draw(1000, 750) { x, y in colours[(y / size) * columns + x / size] }
    }

    static func gradient() -> Raster {
        draw(1000, 750) { x, _ in
            let v = UInt8(x * 255 / 999)
            return (v, v, v)
        }
    }

    /// A page: a title bar, a sidebar of flat buttons, and lines of small sharp dark glyphs on white.
    static func screenshot(seed: UInt64) -> Raster {
        var random = SplitMix64(seed: seed)
        var ink = Set<Int>()
        for line in 0..<24 {
            var x = 230
            let top = 90 + line * 26
            while x < 920 {
                for _ in 0..<Int.random(in: 2...8, using: &random) {
                    for gy in 0..<11 {
                        for gx in 0..<6 where Double.random(in: 0..<1, using: &random) < 0.35 {
                            ink.insert((top + gy) * 1000 + x + gx)
                        }
                    }
                    x += 8
                }
                x += 8
            }
        }
        return draw(1000, 750) { x, y in
            if y < 60 { return (40, 90, 200) }
            if ink.contains(y * 1000 + x) { return (20, 20, 20) }
            if x < 200 { return (y - 80) % 40 < 14 && (20..<170).contains(x) ? (90, 90, 100) : (240, 240, 245) }
            return (255, 255, 255)
        }
    }
}

@Suite struct NotAPhotoTests {
    /// The verdict on a drawn picture, through the same statistics and judgement as a decoded photo.
    static func judge(_ raster: Raster) -> BedVerdict { BedVerifier().judge(PixelStatistics(raster)) }

    static func expectRefused(_ verdict: BedVerdict, because words: String, _ what: String) {
        #expect(!verdict.made, "\(what) was judged made")
        #expect(verdict.probability == 0 && verdict.confidence == 1)
        #expect(verdict.reasons == [verdict.notAPhoto ?? ""])
        let reason = verdict.notAPhoto ?? "none"
        #expect(reason.hasPrefix("not a photo of a room: ") && reason.contains(words), "\(what): \(reason)")
    }

    @Test(arguments: [
        ("black.jpg", "nearly uniform (brightness varies by 0.0%)"), ("gray.jpg", "nearly uniform"),
        ("white.jpg", "nearly uniform"), ("noise.jpg", "random noise"), ("blocks-8.jpg", "unrelated"),
        ("blocks-50.jpg", "no soft shading"), ("gradient.jpg", "almost no detail"),
        ("screenshot.jpg", "no soft shading"),
    ])
    func committedPicturesThatAreNotPhotosAreRefused(_ name: String, _ words: String) throws {
        let judgement = try BedVerifier().verify(path: Samples.path("not-photos/\(name)"))
        Self.expectRefused(judgement.verdict, because: words, name)
    }

    @Test func theIssuesBlackPictureIsNotMade() throws {
        // The 1000x750 black JPEG of issue 23 was "made, confidence 0.97".
        let verdict = try BedVerifier().verify(path: Samples.path("not-photos/black.jpg")).verdict
        #expect(verdict.reasons == ["not a photo of a room: the picture is nearly uniform (brightness varies by 0.0%)"])
    }

    @Test(arguments: [UInt8(0), 128, 255]) func uniformPicturesAreRefused(_ value: UInt8) {
        Self.expectRefused(Self.judge(DrawnPictures.uniform(value)), because: "nearly uniform", "uniform \(value)")
    }

    @Test(arguments: [UInt64(1), 2, 3]) func noiseIsRefused(_ seed: UInt64) {
        Self.expectRefused(Self.judge(DrawnPictures.noise(seed: seed)), because: "random noise", "noise \(seed)")
    }

    /// A block pattern varied daily passed six days running: every size, six days each.
    @Test(arguments: [4, 8, 16, 25, 50, 64, 100, 150])
    func blockPatternsVariedDailyAreRefusedEveryDay(_ size: Int) {
        for day in UInt64(1)...6 {
            let verdict = Self.judge(DrawnPictures.blocks(size: size, seed: day * 1000 + UInt64(size)))
            #expect(!verdict.made && verdict.notAPhoto != nil, "\(size)-pixel blocks, day \(day): \(verdict.reasons)")
        }
    }

    @Test func aGradientAndScreenshotsAreRefused() {
        Self.expectRefused(Self.judge(DrawnPictures.gradient()), because: "almost no detail", "gradient")
        for seed in UInt64(1)...3 {
            let verdict = Self.judge(DrawnPictures.screenshot(seed: seed))
            #expect(!verdict.made && verdict.notAPhoto != nil, "screenshot \(seed): \(verdict.reasons)")
        }
    }

    @Test(arguments: [
        "made-1.jpg", "made-2.jpg", "made-3.jpg", "unmade-1.jpg", "unmade-2.jpg", "unmade-3.jpg",
        "made-1-smaller-copy.jpg", "made-2-exif-2026-11-18.jpg", "made-3-exif-local-2026-11-20.jpg",
    ])
    func theProjectsBedScenesAreJudgedAsPhotos(_ name: String) throws {
        let verdict = try Scenes.judge(name).verdict
        #expect(verdict.notAPhoto == nil, "\(name): \(verdict.reasons)")
        #expect(verdict.made == name.hasPrefix("made"))
    }

    @Test func theBuiltInModelCarriesOneLimitPerStatistic() {
        let limits = BedModel.builtIn.photoLimits ?? []
        #expect(limits.map(\.statistic) == PhotoLimits.rules.map(\.statistic))
        for limit in limits {
            // Halfway between the most extreme calibration photo and the impossible end.
            if let atLeast = limit.atLeast { #expect(abs(atLeast - limit.calibrationExtreme / 2) < 1e-6) }
            if let atMost = limit.atMost { #expect(abs(atMost - (1 + limit.calibrationExtreme) / 2) < 1e-6) }
        }
    }

    @Test func aVersion1ModelStillLoadsAndGetsTheBuiltInPhotoLimits() throws {
        var old = BedModel.builtIn
        old.version = "bed-made-v1"
        old.photoLimits = nil
        let text = try old.jsonText()
        #expect(!text.contains("photoLimits"))
        let loaded = try BedModel.decode(Data(text.utf8), name: "v1.json")
        let verifier = BedVerifier(model: loaded)
        #expect(verifier.photoLimits == BedModel.builtIn.photoLimits)
        #expect(verifier.judge(PixelStatistics(DrawnPictures.uniform(0))).notAPhoto != nil)
    }

    @Test func aPhotoLimitOnAnUnknownStatisticIsABadModel() throws {
        var model = BedModel.builtIn
        model.photoLimits = [PhotoLimit(statistic: "blackness", atMost: 0.5, calibrationExtreme: 0.2)]
        #expect(throws: PhotoError(.badModel, path: "m.json", "model m.json: unknown photo statistic \"blackness\"")) {
            try BedModel.decode(Data(try model.jsonText().utf8), name: "m.json")
        }
    }
}
