import Digest
import Foundation

/// Says whether a photo shows a made bed, from its pixel statistics and a `BedModel`.
public struct BedVerifier: Sendable {
    /// The long side the decoder must at least reach: about 512, and low enough that a 12-megapixel
    /// photo (4032 px) decodes at 1/8 scale (504 px).
    public static let workingLongSide = 500

    public let model: BedModel
    /// The probability of "made" at or above which a photo counts as made.
    public let threshold: Double

    /// A verifier over `model` (default: the compiled-in one); `threshold` overrides the model's.
    public init(model: BedModel = .builtIn, threshold: Double? = nil) {
        self.model = model
        self.threshold = threshold ?? model.threshold
    }

    /// Decodes the photo at `path`, measures it and judges it. Throws the decoder's `PhotoError`s.
    public func verify(
        path: String, maxPixels: Int = ImageDecoder.defaultMaxPixels, fingerprint: Bool = true, scene: Bool = false
    ) throws -> PhotoJudgement {
        try verify(
            data: ImageDecoder.read(path), name: ImageDecoder.name(of: path), maxPixels: maxPixels,
            fingerprint: fingerprint, scene: scene)
    }

    /// Decodes a photo's bytes, measures and judges them, and (when `fingerprint`, as a proof needs)
    /// takes the SHA-256 of the same bytes, with no second read of the file. A verdict alone needs no
    /// SHA-256, which costs a 12-megapixel JPEG about a tenth of its time with loading libcrypto.
    /// `name` is used in error messages. With `scene`, the judgement carries the photo's `SceneProbe`
    /// for matching it against reference photos.
    public func verify(
        data: Data, name: String = "image", maxPixels: Int = ImageDecoder.defaultMaxPixels, fingerprint: Bool = true,
        scene: Bool = false
    ) throws -> PhotoJudgement {
        let image = try ImageDecoder.decode(
            data: data, name: name, workingLongSide: Self.workingLongSide, maxPixels: maxPixels)
        let analysis = AnalysisImage(image.raster, longSide: model.analysisLongSide)
        let statistics = PixelStatistics(analysis: analysis)
        return PhotoJudgement(
            info: image.info, verdict: judge(statistics), hash: DifferenceHash(analysis: analysis),
            sha256: fingerprint ? SHA256Digest.hex(data) : nil, scene: scene ? SceneProbe(image.raster) : nil)
    }

    /// The limits past which a picture is not a camera photo of a room: the model's own, or for a
    /// model from before v2, the compiled-in model's.
    public var photoLimits: [PhotoLimit] { model.photoLimits ?? BedModel.builtIn.photoLimits ?? [] }

    /// The verdict on a photo with these statistics. A picture that is not a camera photo of a room
    /// (a flat colour, noise, flat blocks, a gradient, a screenshot) is not made, and the reason says why.
    public func judge(_ statistics: PixelStatistics) -> BedVerdict {
        if let refusal = PhotoLimits.refusal(statistics, limits: photoLimits) {
            return BedVerdict(
                made: false, probability: 0, confidence: 1, reasons: [refusal], features: statistics.values,
                notAPhoto: refusal)
        }
        var score = model.bias
        var contributions: [(name: String, z: Double, amount: Double)] = []
        for (i, name) in model.features.enumerated() {
            let z = (statistics[name] - model.means[i]) / model.scales[i]
            let amount = model.weights[i] * z
            score += amount
            contributions.append((name, z, amount))
        }
        let probability = 1 / (1 + exp(-score))
        let made = probability >= threshold
        // The features that pushed towards the verdict, strongest first: two, and a third if it counts.
        let drivers = contributions.filter { made ? $0.amount > 0 : $0.amount < 0 }
            .sorted { abs($0.amount) > abs($1.amount) }
            .enumerated()
            .filter { $0.offset < 2 || abs($0.element.amount) >= 0.25 }
            .prefix(3)
        let reasons = drivers.map { Self.describe($0.element.name, high: $0.element.z > 0) }
        return BedVerdict(
            made: made, probability: probability, confidence: made ? probability : 1 - probability,
            reasons: reasons.isEmpty ? ["nothing in particular stood out"] : reasons, features: statistics.values,
            notAPhoto: nil)
    }

    /// A feature, above or below its calibration mean, in everyday words ("the covers look smooth").
    /// The CLI and the web app show these as the verdict's reasons, so they name what a person sees.
    static func describe(_ name: String, high: Bool) -> String {
        let level = high ? "high" : "low"
        switch name {
        case "smoothShare": return high ? "the covers look smooth" : "hardly anything looks smooth"
        case "straightEdgeShare": return high ? "neat, straight lines" : "hardly any straight lines"
        case "orientationEntropy": return high ? "things lying every which way" : "lines that run the same way"
        case "edgeCoherence": return high ? "long, clean outlines" : "broken, messy outlines"
        case "gradientEnergy": return high ? "lots of folds and shadows" : "few folds or shadows"
        case "gradientEnergyUpper": return high ? "a busy top half" : "a calm top half"
        case "gradientEnergyLower":
            return high ? "lots of folds and shadows in the bottom half" : "a smooth bottom half"
        case "gradientEnergyCentre": return high ? "lots of folds and shadows in the middle" : "a smooth middle"
        case "edgeDensityUpper": return high ? "lots going on in the top half" : "a tidy top half"
        case "edgeDensityLower": return high ? "rumpled covers in the bottom half" : "a tidy bottom half"
        case "edgeDensityCentre": return high ? "rumpled covers in the middle" : "a tidy middle"
        case "blockEnergySpread": return high ? "the clutter is in a few spots" : "clutter all over"
        case "colourEntropy": return high ? "lots of different colours, like things lying about" : "just a few colours"
        case "saturationMean": return high ? "bright, colourful things in view" : "soft, muted colours"
        case "saturationSpread": return high ? "bright things scattered about" : "even colours"
        case "lumaContrast": return high ? "strong light and shadow" : "soft, even light"
        default: return "\(level) \(name)"
        }
    }
}

/// The verdict on one photo.
public struct BedVerdict: Sendable, Equatable {
    /// Whether the bed counts as made.
    public let made: Bool
    /// The model's probability that the bed is made, 0 to 1.
    public let probability: Double
    /// The probability of the verdict given (made: `probability`; not made: 1 - `probability`).
    public let confidence: Double
    /// The two or three features that drove the verdict, in words.
    public let reasons: [String]
    /// Every measured feature by name.
    public let features: [String: Double]
    /// Why the picture was refused as not a camera photo of a room (`made` is then false, the
    /// probability 0 and this the only reason); nil for a photo the bed model judged.
    public let notAPhoto: String?
}

/// A decoded photo's facts, verdict and fingerprints.
public struct PhotoJudgement: Sendable {
    public let info: ImageInfo
    public let verdict: BedVerdict
    /// The perceptual hash of the pixels: close for re-encoded or resized copies.
    public let hash: DifferenceHash
    /// SHA-256 of the file's bytes (64 lowercase hex digits), from the bytes that were decoded; nil
    /// when the verifier was asked for a verdict alone.
    public let sha256: String?
    /// The photo's scene, measured for matching against reference photos; nil unless asked for.
    public var scene: SceneProbe? = nil
}
