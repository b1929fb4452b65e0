import Foundation

/// Pixel statistics of a photo that tell a made bed and a tidy room from an unmade, cluttered one,
/// and (`PhotoLikeness`) a camera photo from a picture a program made.
///
/// Each is measured on the photo area-averaged to a long side of `analysisLongSide` pixels, with
/// values normalised per pixel (shares, means, entropies), so they do not depend on the photo's size.
public struct PixelStatistics: Sendable, Equatable {
    /// The long side, in pixels, every photo is resampled to before measuring.
    public static let analysisLongSide = 256
    /// A gradient (luma change per pixel, 0 to 1) above this counts as an edge.
    static let edgeThreshold: Float = 0.04
    /// A block whose luma standard deviation is below this counts as smooth.
    static let smoothThreshold: Float = 0.04
    /// Side of the square blocks for smoothness and orientation coherence, in analysis pixels.
    static let block = 8

    /// Every feature's name: the bed features, then `PhotoLikeness.names`.
    public static let names =
        [
            "smoothShare", "straightEdgeShare", "orientationEntropy", "edgeCoherence",
            "gradientEnergy", "gradientEnergyUpper", "gradientEnergyLower", "gradientEnergyCentre",
            "edgeDensityUpper", "edgeDensityLower", "edgeDensityCentre", "blockEnergySpread",
            "colourEntropy", "saturationMean", "saturationSpread", "lumaContrast",
        ] + PhotoLikeness.names

    /// The features by name (see `names`).
    public let values: [String: Double]

    /// The value of the feature called `name` (a name from `names`).
    public subscript(name: String) -> Double { values[name] ?? 0 }

    /// Features measured before, by name (a calibration set's stored features).
    public init(values: [String: Double]) {
        self.values = values
    }

    /// Measures every feature of `raster` (any size; resampled to `analysisLongSide`).
    public init(_ raster: Raster) {
        self.init(analysis: AnalysisImage(raster, longSide: Self.analysisLongSide))
    }

    init(analysis image: AnalysisImage) {
        var values: [String: Double] = [:]
        let gradients = Gradients(image)
        values.merge(gradients.regionFeatures(image)) { $1 }
        values.merge(gradients.orientationFeatures()) { $1 }
        values.merge(Self.blockFeatures(image, gradients)) { $1 }
        values.merge(Self.colourFeatures(image)) { $1 }
        values.merge(PhotoLikeness.features(image, gradients)) { $1 }
        self.values = values
    }

    /// Smooth-block share, structure-tensor coherence and the spread of block gradient energy.
    private static func blockFeatures(_ image: AnalysisImage, _ g: Gradients) -> [String: Double] {
        let columns = image.width / block
        let rows = image.height / block
        guard columns > 0, rows > 0 else {
            return ["smoothShare": 0, "edgeCoherence": 0, "blockEnergySpread": 0]
        }
        var smooth = 0
        var coherenceSum = 0.0
        var coherenceWeight = 0.0
        var energies = [Double]()
        energies.reserveCapacity(columns * rows)
        let count = Float(block * block)
        for by in 0..<rows {
            for bx in 0..<columns {
                var sum: Float = 0
                var sumSquares: Float = 0
                var jxx: Float = 0
                var jyy: Float = 0
                var jxy: Float = 0
                var magnitude: Float = 0
                for y in (by * block)..<(by * block + block) {
                    let row = y * image.width
                    for x in (bx * block)..<(bx * block + block) {
                        let i = row + x
                        let l = image.luma[i]
                        sum += l
                        sumSquares += l * l
                        let gx = g.dx[i]
                        let gy = g.dy[i]
                        jxx += gx * gx
                        jyy += gy * gy
                        jxy += gx * gy
                        magnitude += g.magnitude[i]
                    }
                }
                let mean = sum / count
                let variance = max(0, sumSquares / count - mean * mean)
                if variance.squareRoot() < smoothThreshold { smooth += 1 }
                let trace = Double(jxx + jyy)
                if trace > 1e-9 {
                    let d = Double((jxx - jyy) * (jxx - jyy) + 4 * jxy * jxy).squareRoot()
                    coherenceSum += d  // (d / trace) weighted by trace
                    coherenceWeight += trace
                }
                energies.append(Double(magnitude / count))
            }
        }
        let meanEnergy = energies.reduce(0, +) / Double(energies.count)
        let varianceEnergy = energies.reduce(0) { $0 + ($1 - meanEnergy) * ($1 - meanEnergy) } / Double(energies.count)
        return [
            "smoothShare": Double(smooth) / Double(columns * rows),
            "edgeCoherence": coherenceWeight > 0 ? coherenceSum / coherenceWeight : 0,
            "blockEnergySpread": meanEnergy > 1e-9 ? varianceEnergy.squareRoot() / meanEnergy : 0,
        ]
    }

    /// Colour entropy (8 levels per channel), saturation mean and spread, luma contrast.
    private static func colourFeatures(_ image: AnalysisImage) -> [String: Double] {
        let n = image.luma.count
        var histogram = [Int](repeating: 0, count: 512)
        var saturationSum = 0.0
        var saturationSquares = 0.0
        var lumaSum = 0.0
        var lumaSquares = 0.0
        for i in 0..<n {
            let r = image.red[i]
            let g = image.green[i]
            let b = image.blue[i]
            histogram[level(r) * 64 + level(g) * 8 + level(b)] += 1
            let high = max(r, g, b)
            let low = min(r, g, b)
            let s = high > 0 ? Double((high - low) / high) : 0
            saturationSum += s
            saturationSquares += s * s
            let l = Double(image.luma[i])
            lumaSum += l
            lumaSquares += l * l
        }
        let count = Double(n)
        let saturationMean = saturationSum / count
        let lumaMean = lumaSum / count
        return [
            "colourEntropy": entropy(histogram.map(Double.init)),
            "saturationMean": saturationMean,
            "saturationSpread": max(0, saturationSquares / count - saturationMean * saturationMean).squareRoot(),
            "lumaContrast": max(0, lumaSquares / count - lumaMean * lumaMean).squareRoot(),
        ]
    }

    /// A channel value from 0 to 1 as one of 8 levels.
    @inline(__always) private static func level(_ v: Float) -> Int { min(7, max(0, Int(v * 8))) }

    /// Shannon entropy in bits of a histogram of non-negative weights.
    static func entropy(_ weights: [Double]) -> Double {
        let total = weights.reduce(0, +)
        guard total > 0 else { return 0 }
        return weights.reduce(0.0) { sum, w in
            guard w > 0 else { return sum }
            let p = w / total
            return sum - p * log2(p)
        }
    }
}
