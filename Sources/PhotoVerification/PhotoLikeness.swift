import Foundation

/// Statistics that tell a camera photo of a room from a picture made by a program: a flat colour,
/// noise, flat colour blocks, a plain gradient, a screenshot.
///
/// Measured on the same analysis image as the bed features, so they join `PixelStatistics.values`
/// and appear in `scripts/calibrate`'s features CSV; `PhotoLimits` turns them into a refusal.
enum PhotoLikeness {
    /// The statistics' names, each also a `PixelStatistics` feature.
    static let names = [
        "lumaRange", "neighbourCorrelation", "nearbyAreaCorrelation", "edgeShare", "softGradientShare",
        "dominantColourShare",
    ]
    /// How far apart, in analysis pixels (1/32 of the long side), `nearbyAreaCorrelation` compares.
    static let nearbyDistance = 8
    /// A gradient (luma change per pixel) above this and up to an edge is shading or texture: at
    /// least two 8-bit steps across the two pixels of a central difference.
    static let softGradient: Float = 1.0 / 255
    /// How many of the most frequent colours `dominantColourShare` counts.
    static let dominantColours = 16

    /// Every statistic of `image` by name; `gradients` are the image's own.
    static func features(_ image: AnalysisImage, _ gradients: Gradients) -> [String: Double] {
        let n = image.luma.count
        guard n > 0 else { return Dictionary(uniqueKeysWithValues: names.map { ($0, 0.0) }) }
        var edges = 0
        var soft = 0
        for m in gradients.magnitude {
            if m > PixelStatistics.edgeThreshold {
                edges += 1
            } else if m > softGradient {
                soft += 1
            }
        }
        return [
            "lumaRange": lumaRange(image.luma),
            "neighbourCorrelation": correlation(image, distance: 1),
            "nearbyAreaCorrelation": correlation(image, distance: nearbyDistance),
            "edgeShare": Double(edges) / Double(n),
            "softGradientShare": Double(soft) / Double(n),
            "dominantColourShare": dominantColourShare(image),
        ]
    }

    /// The spread of brightness: the 99th minus the 1st percentile of luma (0 to 1), so a few odd
    /// pixels (a logo, a dead pixel) do not make a flat picture look varied.
    static func lumaRange(_ luma: [Float]) -> Double {
        let bins = 1024
        var histogram = [Int](repeating: 0, count: bins)
        for l in luma { histogram[min(bins - 1, max(0, Int(l * Float(bins))))] += 1 }
        func percentile(_ p: Double) -> Double {
            let target = Int((Double(luma.count) * p).rounded(.down))
            var seen = 0
            for (bin, count) in histogram.enumerated() {
                seen += count
                if seen > target { return (Double(bin) + 0.5) / Double(bins) }
            }
            return 1
        }
        return max(0, percentile(0.99) - percentile(0.01))
    }

    /// The correlation of each pixel's luma with the pixels `distance` to its right and below (the
    /// mean of the two). Next to each other (1), near 1 in a photo, where neighbours show the same
    /// surface, and near 0 in noise; 8 apart, still clearly positive in a photo of a room and near 0
    /// in random blocks smaller than that. No variation at all counts as perfectly correlated (such
    /// a picture is refused as uniform).
    static func correlation(_ image: AnalysisImage, distance: Int) -> Double {
        let w = image.width
        let h = image.height
        let measured = [
            w > distance
                ? correlation(image.luma, rows: 0..<h, columns: 0..<(w - distance), step: distance, width: w) : nil,
            h > distance
                ? correlation(image.luma, rows: 0..<(h - distance), columns: 0..<w, step: w * distance, width: w) : nil,
        ].compactMap { $0 }
        return measured.isEmpty ? 1 : measured.reduce(0, +) / Double(measured.count)
    }

    /// The correlation of `luma[i]` with `luma[i + step]` over the pixels in `rows` x `columns`.
    private static func correlation(_ luma: [Float], rows: Range<Int>, columns: Range<Int>, step: Int, width: Int)
        -> Double
    {
        var sa = 0.0
        var sb = 0.0
        var saa = 0.0
        var sbb = 0.0
        var sab = 0.0
        for y in rows {
            for x in columns {
                let a = Double(luma[y * width + x])
                let b = Double(luma[y * width + x + step])
                sa += a
                sb += b
                saa += a * a
                sbb += b * b
                sab += a * b
            }
        }
        let c = Double(rows.count * columns.count)
        let varianceA = saa / c - (sa / c) * (sa / c)
        let varianceB = sbb / c - (sb / c) * (sb / c)
        guard varianceA > 1e-12, varianceB > 1e-12 else { return 1 }
        return (sab / c - (sa / c) * (sb / c)) / (varianceA * varianceB).squareRoot()
    }

    /// The share of pixels in the `dominantColours` most frequent colours (32 levels per channel):
    /// a drawing, a screenshot or a block pattern is a handful of colours; a photo is thousands.
    static func dominantColourShare(_ image: AnalysisImage) -> Double {
        var histogram = [Int](repeating: 0, count: 32 * 32 * 32)
        @inline(__always) func level(_ v: Float) -> Int { min(31, max(0, Int(v * 32))) }
        for i in image.luma.indices {
            histogram[level(image.red[i]) * 1024 + level(image.green[i]) * 32 + level(image.blue[i])] += 1
        }
        let top = histogram.sorted(by: >).prefix(dominantColours).reduce(0, +)
        return Double(top) / Double(image.luma.count)
    }
}
