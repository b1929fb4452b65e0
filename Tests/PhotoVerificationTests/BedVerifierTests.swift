import Foundation
import MorningProofCore
import TestFixtures
import Testing

@testable import PhotoVerification

/// Paths of the synthetic bed scenes (scripts/make-scenes) and the model file.
enum Scenes {
    static func path(_ name: String) -> String { Samples.path("scenes/\(name)") }
    static func judge(_ name: String) throws -> PhotoJudgement { try BedVerifier().verify(path: path(name)) }
}

@Suite struct BedVerifierTests {
    @Test func featuresAreDeterministicAndNamed() throws {
        let image = try ImageDecoder.decode(path: Scenes.path("unmade-1.jpg"), workingLongSide: 500)
        let first = PixelStatistics(image.raster)
        let second = PixelStatistics(image.raster)
        #expect(first == second)
        #expect(Set(first.values.keys) == Set(PixelStatistics.names))
        #expect(first.values.values.allSatisfy { $0.isFinite })
    }

    @Test func theJudgementFingerprintsTheBytesItDecoded() throws {
        let path = Scenes.path("made-1.jpg")
        let judgement = try Scenes.judge("made-1.jpg")
        // sha256sum SampleImages/scenes/made-1.jpg
        #expect(judgement.sha256 == "a39c3b727cc2fa18b8275cd477af3c5f47eac8281bd1041cc9ccceb6fe96aa51")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromBytes = try BedVerifier().verify(data: bytes, name: "made-1.jpg")
        #expect(fromBytes.sha256 == judgement.sha256)
        #expect(fromBytes.hash == judgement.hash && fromBytes.verdict == judgement.verdict)
        // A re-encoded copy has other bytes, whatever its pixels.
        #expect(try Scenes.judge("made-1-smaller-copy.jpg").sha256 != judgement.sha256)
    }

    @Test func aVerdictAloneSkipsTheFingerprintAndChangesNothingElse() throws {
        let judged = try Scenes.judge("made-1.jpg")
        let alone = try BedVerifier().verify(path: Scenes.path("made-1.jpg"), fingerprint: false)
        #expect(alone.sha256 == nil)
        #expect(alone.verdict == judged.verdict && alone.hash == judged.hash && alone.info == judged.info)
    }

    @Test func aFlatGreyRasterIsAllSmoothWithNoEdges() {
        let raster = Raster(width: 300, height: 200, pixels: [UInt8](repeating: 128, count: 300 * 200 * 3))
        let statistics = PixelStatistics(raster)
        #expect(statistics["smoothShare"] == 1)
        #expect(statistics["gradientEnergy"] < 1e-6)
        #expect(statistics["edgeDensityLower"] == 0)
        #expect(statistics["colourEntropy"] == 0)
        #expect(statistics["saturationMean"] == 0)
    }

    @Test func stripesHaveStraightEdgesAndNoSmoothBlocks() {
        // Vertical black and white stripes 2 px wide: every gradient is horizontal.
        var pixels = [UInt8]()
        for _ in 0..<256 { for x in 0..<256 { pixels += Array(repeating: (x / 2) % 2 == 0 ? 0 : 255, count: 3) } }
        let statistics = PixelStatistics(Raster(width: 256, height: 256, pixels: pixels))
        #expect(statistics["straightEdgeShare"] > 0.99)
        #expect(statistics["smoothShare"] == 0)
        #expect(statistics["edgeDensityUpper"] > 0.9)
    }

    @Test func featuresBarelyChangeWhenThePhotoIsHalved() throws {
        let full = try ImageDecoder.decode(path: Scenes.path("made-1.jpg"), workingLongSide: 500)
        let half = try ImageDecoder.decode(path: Scenes.path("made-1-smaller-copy.jpg"), workingLongSide: 500)
        let a = PixelStatistics(full.raster)
        let b = PixelStatistics(half.raster)
        for name in ["smoothShare", "straightEdgeShare", "edgeDensityLower", "saturationMean"] {
            #expect(abs(a[name] - b[name]) < 0.1, "\(name): \(a[name]) vs \(b[name])")
        }
    }

    @Test(arguments: ["made-1.jpg", "made-2.jpg", "made-3.jpg"])
    func madeScenesAreMade(_ name: String) throws {
        let verdict = try Scenes.judge(name).verdict
        #expect(verdict.made)
        #expect(verdict.confidence > 0.5)
        #expect((2...3).contains(verdict.reasons.count))
    }

    @Test(arguments: ["unmade-1.jpg", "unmade-2.jpg", "unmade-3.jpg"])
    func unmadeScenesAreNotMade(_ name: String) throws {
        let verdict = try Scenes.judge(name).verdict
        #expect(!verdict.made)
        #expect(verdict.confidence > 0.5)
        #expect(verdict.reasons.contains { $0.contains("smooth") || $0.contains("straight") || $0.contains("colours") })
    }

    @Test func aThresholdBelowTheProbabilityTurnsTheVerdict() throws {
        let statistics = PixelStatistics(
            try ImageDecoder.decode(path: Scenes.path("unmade-1.jpg"), workingLongSide: 500).raster)
        let verdict = BedVerifier().judge(statistics)
        #expect(!verdict.made)
        let lowered = BedVerifier(threshold: verdict.probability / 2).judge(statistics)
        #expect(lowered.made)
        #expect(lowered.probability == verdict.probability)
    }

    @Test func differenceHashKeepsCopiesCloseAndScenesApart() throws {
        let original = try Scenes.judge("made-1.jpg").hash
        let copy = try Scenes.judge("made-1-smaller-copy.jpg").hash.distance(to: original)
        #expect(copy <= 6, "the smaller copy is \(copy) bits away")
        for other in ["made-2.jpg", "made-3.jpg", "unmade-1.jpg", "unmade-2.jpg"] {
            let distance = try Scenes.judge(other).hash.distance(to: original)
            #expect(distance > 10, "\(other) is only \(distance) bits away")
        }
    }
}

@Suite struct BedModelTests {
    static let modelFile = Repository.path("Models/bed-made-v2.json")

    @Test func theCompiledInModelIsTheModelFile() throws {
        let file = try String(contentsOfFile: Self.modelFile, encoding: .utf8)
        #expect(try BedModel.load(path: Self.modelFile) == BedModel.builtIn)
        #expect(try BedModel.builtIn.jsonText() == file)
    }

    @Test func badModelsAreRefusedWithTheirExitCodes() throws {
        #expect(throws: PhotoError(.noSuchFile, path: "/nonexistent.json", "cannot read model /nonexistent.json: no such file")) {
            try BedModel.load(path: "/nonexistent.json")
        }
        var model = BedModel.builtIn
        model.features[0] = "bedSheetColour"
        let data = Data(try model.jsonText().utf8)
        #expect(throws: PhotoError(.badModel, path: "m.json", "model m.json: unknown feature \"bedSheetColour\"")) {
            try BedModel.decode(data, name: "m.json")
        }
    }

    @Test func logisticRegressionSeparatesSeparableData() {
        let x: [[Double]] = [[-2], [-1], [-0.5], [0.5], [1], [2]]
        let (weights, bias) = LogisticRegression.fit(x, [0, 0, 0, 1, 1, 1], l2Penalty: 0.1)
        #expect(weights[0] > 1)
        #expect(abs(bias) < 0.1)
    }
}
