import Foundation

/// One labelled calibration photo's features.
public struct LabelledSample: Sendable {
    public let file: String
    public let made: Bool
    /// Whether a bed is prominent in the photo (bed_visible.csv "yes").
    public let bedVisible: Bool
    public let statistics: PixelStatistics

    public init(file: String, made: Bool, bedVisible: Bool, statistics: PixelStatistics) {
        self.file = file
        self.made = made
        self.bedVisible = bedVisible
        self.statistics = statistics
    }
}

/// Fits a `BedModel` (L2-regularised logistic regression on standardised features) and measures it
/// with repeated stratified k-fold cross-validation.
public struct BedModelFitter: Sendable {
    /// The features the default model reads (chosen by cross-validated measurement, see README).
    public static let defaultFeatures = [
        "smoothShare", "straightEdgeShare", "colourEntropy", "gradientEnergyCentre", "saturationSpread",
    ]

    public var features: [String]
    public var l2Penalty: Double
    public var folds: Int
    public var repeats: Int

    public init(features: [String] = defaultFeatures, l2Penalty: Double = 5, folds: Int = 5, repeats: Int = 10) {
        self.features = features
        self.l2Penalty = l2Penalty
        self.folds = folds
        self.repeats = repeats
    }

    /// Fits on every sample and attaches cross-validated figures; `data` names the folder.
    public func calibrate(_ samples: [LabelledSample], data: String, version: String = "bed-made-v2") -> BedModel {
        var model = fit(samples)
        let made = samples.filter(\.made).count
        // Pooled out-of-fold predictions per repeat; figures are the mean over repeats.
        var all: [Double] = []
        var madeRecalls: [Double] = []
        var notMadeRecalls: [Double] = []
        var visible: [Double] = []
        var notPhotos = 0
        for repeatIndex in 0..<repeats {
            let verdicts = crossValidatedVerdicts(samples, seed: UInt64(repeatIndex + 1))
            notPhotos += verdicts.filter { $0.notAPhoto != nil }.count
            let predictions = verdicts.map(\.made)
            let (balanced, madeRecall, notMadeRecall) = Self.balancedAccuracy(samples, predictions)
            all.append(balanced)
            madeRecalls.append(madeRecall)
            notMadeRecalls.append(notMadeRecall)
            let subset = samples.indices.filter { samples[$0].bedVisible }
            visible.append(Self.balancedAccuracy(subset.map { samples[$0] }, subset.map { predictions[$0] }).0)
        }
        let visibleSamples = samples.filter(\.bedVisible)
        let training = samples.map { BedVerifier(model: model).judge($0.statistics).made }
        model.calibration = CalibrationSummary(
            data: data, images: samples.count, made: made, notMade: samples.count - made, folds: folds,
            repeats: repeats, l2Penalty: l2Penalty, balancedAccuracy: Self.round(Self.mean(all)),
            madeRecall: Self.round(Self.mean(madeRecalls)), notMadeRecall: Self.round(Self.mean(notMadeRecalls)),
            bedVisible: visibleSamples.isEmpty
                ? nil
                : SubsetSummary(
                    rule: "bed_visible.csv \"yes\" only; \"maybe\" and \"no\" are left out of this subset",
                    images: visibleSamples.count, made: visibleSamples.filter(\.made).count,
                    notMade: visibleSamples.filter { !$0.made }.count,
                    balancedAccuracy: Self.round(Self.mean(visible))),
            trainingBalancedAccuracy: Self.round(Self.balancedAccuracy(samples, training).0),
            heldBackNotAPhoto: Self.round(Double(notPhotos) / Double(max(1, repeats))),
            trainingNotAPhoto: samples.filter { BedVerifier(model: model).judge($0.statistics).notAPhoto != nil }.count)
        model.version = version
        return model
    }

    /// A model fitted on `samples` (standardisation and photo limits from them too), with an empty
    /// calibration summary.
    public func fit(_ samples: [LabelledSample]) -> BedModel {
        let x = samples.map { sample in features.map { sample.statistics[$0] } }
        let y = samples.map { $0.made ? 1.0 : 0.0 }
        let k = features.count
        var means = [Double](repeating: 0, count: k)
        var scales = [Double](repeating: 1, count: k)
        for j in 0..<k {
            let column = x.map { $0[j] }
            means[j] = Self.mean(column)
            let variance = column.reduce(0) { $0 + ($1 - means[j]) * ($1 - means[j]) } / Double(max(1, column.count))
            scales[j] = variance > 1e-18 ? variance.squareRoot() : 1
        }
        let z = x.map { row in (0..<k).map { (row[$0] - means[$0]) / scales[$0] } }
        let (weights, bias) = LogisticRegression.fit(z, y, l2Penalty: l2Penalty)
        return BedModel(
            version: "bed-made-v2", features: features, means: means, scales: scales, weights: weights, bias: bias,
            threshold: 0.5, analysisLongSide: PixelStatistics.analysisLongSide,
            calibration: CalibrationSummary(
                data: "", images: samples.count, made: 0, notMade: 0, folds: 0, repeats: 0, l2Penalty: l2Penalty,
                balancedAccuracy: 0, madeRecall: 0, notMadeRecall: 0, bedVisible: nil, trainingBalancedAccuracy: 0),
            photoLimits: PhotoLimits.fitted(to: samples.map(\.statistics)))
    }

    /// Out-of-fold verdicts for every sample (bed model and photo limits fitted without its fold):
    /// stratified folds from a seeded shuffle.
    func crossValidatedVerdicts(_ samples: [LabelledSample], seed: UInt64) -> [BedVerdict] {
        var generator = SplitMix64(seed: seed)
        var fold = [Int](repeating: 0, count: samples.count)
        for label in [true, false] {
            let members = samples.indices.filter { samples[$0].made == label }.shuffled(using: &generator)
            for (position, index) in members.enumerated() { fold[index] = position % folds }
        }
        var verdicts = [BedVerdict?](repeating: nil, count: samples.count)
        for f in 0..<folds {
            let model = fit(samples.indices.filter { fold[$0] != f }.map { samples[$0] })
            let verifier = BedVerifier(model: model)
            for i in samples.indices where fold[i] == f {
                verdicts[i] = verifier.judge(samples[i].statistics)
            }
        }
        return verdicts.compactMap { $0 }
    }

    /// (balanced accuracy, made recall, not-made recall) of `predictions` against the samples' labels.
    static func balancedAccuracy(_ samples: [LabelledSample], _ predictions: [Bool]) -> (Double, Double, Double) {
        var hits = [0, 0]
        var totals = [0, 0]
        for (sample, predicted) in zip(samples, predictions) {
            let index = sample.made ? 0 : 1
            totals[index] += 1
            if predicted == sample.made { hits[index] += 1 }
        }
        let madeRecall = totals[0] > 0 ? Double(hits[0]) / Double(totals[0]) : 0
        let notMadeRecall = totals[1] > 0 ? Double(hits[1]) / Double(totals[1]) : 0
        return ((madeRecall + notMadeRecall) / 2, madeRecall, notMadeRecall)
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
    static func round(_ value: Double) -> Double { (value * 10000).rounded() / 10000 }
}

/// L2-regularised logistic regression by Newton's method (few features, so the Hessian is tiny).
enum LogisticRegression {
    /// Weights and intercept minimising log-loss + penalty/2 * |weights|^2 (intercept not penalised).
    static func fit(_ x: [[Double]], _ y: [Double], l2Penalty: Double, iterations: Int = 50) -> ([Double], Double) {
        let k = x.first?.count ?? 0
        var beta = [Double](repeating: 0, count: k + 1)  // last entry: intercept
        for _ in 0..<iterations {
            var gradient = [Double](repeating: 0, count: k + 1)
            var hessian = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k + 1)
            for (row, label) in zip(x, y) {
                let features = row + [1]
                let score = zip(features, beta).reduce(0) { $0 + $1.0 * $1.1 }
                let p = 1 / (1 + exp(-score))
                let w = max(p * (1 - p), 1e-12)
                for a in 0...k {
                    gradient[a] += (p - label) * features[a]
                    for b in 0...k { hessian[a][b] += w * features[a] * features[b] }
                }
            }
            for a in 0..<k {
                gradient[a] += l2Penalty * beta[a]
                hessian[a][a] += l2Penalty
            }
            hessian[k][k] += 1e-9
            guard let step = solve(hessian, gradient) else { break }
            for a in 0...k { beta[a] -= step[a] }
            if step.map(abs).max() ?? 0 < 1e-10 { break }
        }
        return (Array(beta[0..<k]), beta[k])
    }

    /// Solves a x = b by Gaussian elimination with partial pivoting; nil when singular.
    static func solve(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        let n = b.count
        var m = a
        var v = b
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(m[$0][column]) < abs(m[$1][column]) }),
                abs(m[pivot][column]) > 1e-15
            else { return nil }
            m.swapAt(column, pivot)
            v.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = m[row][column] / m[column][column]
                for c in column..<n { m[row][c] -= factor * m[column][c] }
                v[row] -= factor * v[column]
            }
        }
        var solution = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            let rest = ((row + 1)..<n).reduce(0) { $0 + m[row][$1] * solution[$1] }
            solution[row] = (v[row] - rest) / m[row][row]
        }
        return solution
    }
}

/// A small seeded random generator, so cross-validation folds are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
