import Foundation

/// Luma gradients of an analysis image (central differences, zero on the border) and the features
/// read directly from them: gradient energy and edge density by region, orientation statistics.
struct Gradients {
    let width: Int
    let height: Int
    let dx: [Float]
    let dy: [Float]
    let magnitude: [Float]

    init(_ image: AnalysisImage) {
        let width = image.width
        let height = image.height
        self.width = width
        self.height = height
        let n = width * height
        var dx = [Float](repeating: 0, count: n)
        var dy = [Float](repeating: 0, count: n)
        var magnitude = [Float](repeating: 0, count: n)
        image.luma.withUnsafeBufferPointer { l in
            for y in 0..<height {
                let row = y * width
                for x in 0..<width {
                    let i = row + x
                    let gx: Float = (x > 0 && x < width - 1) ? (l[i + 1] - l[i - 1]) * 0.5 : 0
                    let gy: Float = (y > 0 && y < height - 1) ? (l[i + width] - l[i - width]) * 0.5 : 0
                    dx[i] = gx
                    dy[i] = gy
                    magnitude[i] = (gx * gx + gy * gy).squareRoot()
                }
            }
        }
        self.dx = dx
        self.dy = dy
        self.magnitude = magnitude
    }

    /// Mean gradient magnitude and share of edge pixels over the whole frame, the upper and lower
    /// halves and the centre (the middle half in both directions, where a bed usually is).
    func regionFeatures(_ image: AnalysisImage) -> [String: Double] {
        let half = height / 2
        let regions: [(String, Range<Int>, Range<Int>)] = [
            ("", 0..<height, 0..<width),
            ("Upper", 0..<half, 0..<width),
            ("Lower", half..<height, 0..<width),
            ("Centre", (height / 4)..<(3 * height / 4), (width / 4)..<(3 * width / 4)),
        ]
        var values: [String: Double] = [:]
        for (suffix, rows, columns) in regions {
            var energy: Double = 0
            var edges = 0
            for y in rows {
                let row = y * width
                var rowEnergy: Float = 0
                for x in columns {
                    let m = magnitude[row + x]
                    rowEnergy += m
                    if m > PixelStatistics.edgeThreshold { edges += 1 }
                }
                energy += Double(rowEnergy)
            }
            let count = Double(max(1, rows.count * columns.count))
            values["gradientEnergy" + suffix] = energy / count
            if !suffix.isEmpty { values["edgeDensity" + suffix] = Double(edges) / count }
        }
        return values
    }

    /// How the gradient energy (squared magnitude) spreads over 16 orientations: its entropy, and the
    /// share within 11.25 degrees of horizontal or vertical (straight furniture and duvet edges).
    func orientationFeatures() -> [String: Double] {
        var bins = [Double](repeating: 0, count: 16)
        for i in 0..<magnitude.count {
            let m = magnitude[i]
            guard m > 0 else { continue }
            var angle = atan2(dy[i], dx[i])
            if angle < 0 { angle += .pi }
            let bin = min(15, Int(angle / .pi * 16)) % 16
            bins[bin] += Double(m * m)
        }
        let total = bins.reduce(0, +)
        let straight = bins[0] + bins[7] + bins[8] + bins[15]
        return [
            "orientationEntropy": PixelStatistics.entropy(bins),
            "straightEdgeShare": total > 0 ? straight / total : 0,
        ]
    }
}
