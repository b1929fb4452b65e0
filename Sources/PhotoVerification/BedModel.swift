import Foundation
import MorningProofCore

/// The parameters of the bed verifier: a logistic regression over standardised pixel statistics.
///
/// Stored as `Models/bed-made-v2.json` and compiled into the binary (`BedModel.builtIn`); written by
/// `scripts/calibrate`, which also records how well it did under cross-validation. A v1 file (no
/// `photoLimits`) still loads; the verifier then applies the compiled-in model's photo limits.
public struct BedModel: Codable, Sendable, Equatable {
    /// The model's name and version, e.g. "bed-made-v2".
    public var version: String
    /// The `PixelStatistics` features it reads, in the order of `means`, `scales` and `weights`.
    public var features: [String]
    /// Calibration-set mean and standard deviation of each feature (z = (value - mean) / scale).
    public var means: [Double]
    public var scales: [Double]
    /// Logistic-regression weights on the standardised features, and the intercept.
    public var weights: [Double]
    public var bias: Double
    /// The probability of "made" at or above which a photo counts as made.
    public var threshold: Double
    /// The long side photos are resampled to before measuring (`PixelStatistics.analysisLongSide`).
    public var analysisLongSide: Int
    /// How the model was fitted and how well it did.
    public var calibration: CalibrationSummary
    /// The limits past which a picture is refused as not a camera photo of a room (since v2).
    public var photoLimits: [PhotoLimit]?

    /// Reads and checks a model JSON file; a missing file is `.noSuchFile`, a malformed one `.badModel`.
    public static func load(path: String) throws -> BedModel {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PhotoError(.noSuchFile, path: path, "cannot read model \(path): no such file")
        }
        return try decode(data, name: path)
    }

    /// Decodes and checks model JSON; `name` appears in error messages.
    public static func decode(_ data: Data, name: String) throws -> BedModel {
        let model: BedModel
        do {
            model = try JSONDecoder().decode(BedModel.self, from: data)
        } catch {
            throw PhotoError(
                .badModel, path: name, "model \(name) is not a bed model JSON file: \(error)", cause: "\(error)")
        }
        try model.check(name: name)
        return model
    }

    /// The default model compiled into the binary: `Models/bed-made-v2.json`, embedded by SwiftPM.
    public static let builtIn: BedModel = {
        do {
            return try decode(Data(PackageResources.bed_made_v2_json), name: "built-in")
        } catch {
            preconditionFailure("the compiled-in bed model is invalid: \(error)")
        }
    }()

    /// The model as pretty JSON with sorted keys, the form `scripts/calibrate` writes.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    private func check(name: String) throws {
        let count = features.count
        guard count > 0, means.count == count, scales.count == count, weights.count == count else {
            throw PhotoError(
                .badModel, path: name, "model \(name): features, means, scales and weights differ in length")
        }
        if let unknown = features.first(where: { !PixelStatistics.names.contains($0) }) {
            throw PhotoError(.badModel, path: name, "model \(name): unknown feature \"\(unknown)\"")
        }
        guard scales.allSatisfy({ $0 > 0 && $0.isFinite }), (weights + means + [bias]).allSatisfy(\.isFinite),
            threshold > 0, threshold < 1
        else {
            throw PhotoError(.badModel, path: name, "model \(name): scales must be positive and numbers finite")
        }
        for limit in photoLimits ?? [] {
            guard PhotoLikeness.names.contains(limit.statistic) else {
                throw PhotoError(.badModel, path: name, "model \(name): unknown photo statistic \"\(limit.statistic)\"")
            }
            let bounds = [limit.atLeast, limit.atMost].compactMap { $0 }
            guard bounds.count == 1, bounds.allSatisfy(\.isFinite) else {
                throw PhotoError(
                    .badModel, path: name,
                    "model \(name): photo limit \(limit.statistic) needs one finite atLeast or atMost")
            }
        }
    }
}

/// What calibration measured: the data, the cross-validation scheme and the balanced accuracies.
public struct CalibrationSummary: Codable, Sendable, Equatable {
    /// The labelled folder, as given to `scripts/calibrate`.
    public var data: String
    /// Photos used: all, made (clean/), not made (messy/).
    public var images: Int
    public var made: Int
    public var notMade: Int
    /// Stratified k-fold cross-validation, repeated with different shuffles.
    public var folds: Int
    public var repeats: Int
    /// The L2 penalty on the weights (on standardised features).
    public var l2Penalty: Double
    /// Cross-validated balanced accuracy (mean of the made and not-made recall), averaged over repeats.
    public var balancedAccuracy: Double
    public var madeRecall: Double
    public var notMadeRecall: Double
    /// The same, on the photos where a bed is prominent (bed_visible.csv "yes").
    public var bedVisible: SubsetSummary?
    /// Balanced accuracy of the final model on the photos it was fitted on (optimistic, for contrast).
    public var trainingBalancedAccuracy: Double
    /// Calibration photos refused as not a camera photo of a room (since v2): held back (mean per
    /// repeat, limits fitted without the photo's fold), and by the final limits.
    public var heldBackNotAPhoto: Double?
    public var trainingNotAPhoto: Int?
}

/// Cross-validated figures on a subset of the calibration set.
public struct SubsetSummary: Codable, Sendable, Equatable {
    public var rule: String
    public var images: Int
    public var made: Int
    public var notMade: Int
    public var balancedAccuracy: Double
}
