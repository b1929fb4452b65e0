/// A 64-bit perceptual fingerprint of a photo: the difference hash ("dHash") of its luma.
///
/// The luma is area-averaged to 9x8 cells and each bit says whether a cell is brighter than its right
/// neighbour, so a re-encoded, resized or slightly recoloured copy keeps almost every bit.
public struct DifferenceHash: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The 64 bits, row by row from the top left, most significant bit first.
    public let bits: UInt64

    public init(bits: UInt64) { self.bits = bits }

    /// The hash of `raster` (any size).
    public init(_ raster: Raster) {
        self.init(analysis: AnalysisImage(raster, longSide: PixelStatistics.analysisLongSide))
    }

    init(analysis image: AnalysisImage) {
        let columns = AreaWeights(input: image.width, output: 9)
        let rows = AreaWeights(input: image.height, output: 8)
        var cells = [Float](repeating: 0, count: 72)
        for cy in 0..<8 {
            for y in rows.range(cy) {
                let wy = rows.weight(cy, y)
                for cx in 0..<9 {
                    var sum: Float = 0
                    for x in columns.range(cx) { sum += columns.weight(cx, x) * image.luma[y * image.width + x] }
                    cells[cy * 9 + cx] += wy * sum
                }
            }
        }
        var bits: UInt64 = 0
        for cy in 0..<8 {
            for cx in 0..<8 {
                bits <<= 1
                if cells[cy * 9 + cx] > cells[cy * 9 + cx + 1] { bits |= 1 }
            }
        }
        self.bits = bits
    }

    /// How many of the 64 bits differ from `other`'s (0: the same picture; above ~10: different ones).
    public func distance(to other: DifferenceHash) -> Int { (bits ^ other.bits).nonzeroBitCount }

    /// The bits as 16 hexadecimal digits.
    public var description: String {
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The bits as a signed 64-bit integer, the way SQLite stores them.
    public var signedValue: Int64 { Int64(bitPattern: bits) }
}
