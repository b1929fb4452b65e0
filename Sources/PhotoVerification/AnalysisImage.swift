/// A raster resampled to the verifier's fixed analysis size, as floating-point planes from 0 to 1.
///
/// Every feature is measured at this one size (long side `PixelStatistics.analysisLongSide`), so a
/// 299-pixel calibration photo and a 4032-pixel phone photo are judged on the same scale.
struct AnalysisImage {
    let width: Int
    let height: Int
    /// Red, green, blue and luma (Rec. 601) planes, row-major, each `width * height` values.
    let red: [Float]
    let green: [Float]
    let blue: [Float]
    let luma: [Float]

    /// `raster` area-averaged (each output pixel the mean of the input area it covers) to `longSide`.
    /// A raster already smaller than `longSide` is kept at its own size.
    init(_ raster: Raster, longSide: Int) {
        let scale = min(1.0, Double(longSide) / Double(max(raster.width, raster.height, 1)))
        let outWidth = max(1, Int((Double(raster.width) * scale).rounded()))
        let outHeight = max(1, Int((Double(raster.height) * scale).rounded()))
        width = outWidth
        height = outHeight
        let columns = AreaWeights(input: raster.width, output: outWidth)
        let rows = AreaWeights(input: raster.height, output: outHeight)
        // Each output column's input samples and weights, computed once.
        var taps: [(start: Int, weights: [Float])] = []
        for x in 0..<outWidth {
            let range = columns.range(x)
            taps.append((range.lowerBound, range.map { columns.weight(x, $0) }))
        }
        let n = outWidth * outHeight
        var red = [Float](repeating: 0, count: n)
        var green = [Float](repeating: 0, count: n)
        var blue = [Float](repeating: 0, count: n)
        // Horizontal pass per input row into a scratch row, then accumulate into the output rows it covers.
        var scratch = [Float](repeating: 0, count: outWidth * 3)
        raster.pixels.withUnsafeBufferPointer { source in
            red.withUnsafeMutableBufferPointer { r in
                green.withUnsafeMutableBufferPointer { g in
                    blue.withUnsafeMutableBufferPointer { b in
                        scratch.withUnsafeMutableBufferPointer { row in
                            for y in 0..<raster.height {
                                let rowStart = y * raster.width * 3
                                for x in 0..<outWidth {
                                    var sr: Float = 0
                                    var sg: Float = 0
                                    var sb: Float = 0
                                    var offset = rowStart + taps[x].start * 3
                                    for w in taps[x].weights {
                                        sr += w * Float(source[offset])
                                        sg += w * Float(source[offset + 1])
                                        sb += w * Float(source[offset + 2])
                                        offset += 3
                                    }
                                    row[x * 3] = sr
                                    row[x * 3 + 1] = sg
                                    row[x * 3 + 2] = sb
                                }
                                for outY in rows.targets(of: y) {
                                    let w = rows.weight(outY, y) / 255
                                    let base = outY * outWidth
                                    for x in 0..<outWidth {
                                        r[base + x] += w * row[x * 3]
                                        g[base + x] += w * row[x * 3 + 1]
                                        b[base + x] += w * row[x * 3 + 2]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.red = red
        self.green = green
        self.blue = blue
        var luma = [Float](repeating: 0, count: n)
        for i in luma.indices {
            luma[i] = 0.299 * red[i] + 0.587 * green[i] + 0.114 * blue[i]
        }
        self.luma = luma
    }
}

/// The weights of area-average resampling along one axis: output cell `o` covers input
/// `[o * ratio, (o + 1) * ratio)`, and each input sample counts by the share of it inside that cell.
struct AreaWeights {
    let ratio: Double
    let input: Int
    let output: Int

    init(input: Int, output: Int) {
        self.input = input
        self.output = output
        ratio = Double(input) / Double(output)
    }

    /// The input samples that output cell `o` overlaps.
    func range(_ o: Int) -> Range<Int> {
        let start = Double(o) * ratio
        let end = Double(o + 1) * ratio
        return Int(start.rounded(.down))..<min(input, Int(end.rounded(.up)))
    }

    /// The output cells that input sample `i` contributes to.
    func targets(of i: Int) -> Range<Int> {
        let first = Int((Double(i) / ratio).rounded(.down))
        let last = Int(((Double(i + 1) / ratio)).rounded(.up))
        return max(0, first)..<min(output, max(first + 1, last))
    }

    /// How much input sample `i` counts in output cell `o` (the weights of a cell sum to 1).
    func weight(_ o: Int, _ i: Int) -> Float {
        let start = Double(o) * ratio
        let end = Double(o + 1) * ratio
        let overlap = min(end, Double(i + 1)) - max(start, Double(i))
        return overlap > 0 ? Float(overlap / ratio) : 0
    }
}
