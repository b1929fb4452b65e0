import Foundation

/// What a photo's scene looks like, as features and never as a picture: a coarse grid of
/// gradient-orientation histograms (HOG-like) of the photo's brightness.
///
/// Each cell holds how much edge runs in each of 8 directions there, normalised against its
/// neighbours, so the same room keeps its signature through exposure changes, JPEG re-encoding and a
/// made or unmade bed, while another room's edges sit elsewhere. The photo cannot be drawn back from it.
public struct SceneSignature: Sendable, Equatable {
    /// The long side, in pixels, a photo is area-averaged to before its edges are measured.
    public static let longSide = 96
    /// Side of a cell, in those pixels.
    static let cell = 4
    /// Directions per cell (0 to 180 degrees).
    static let bins = 8
    /// A normalised direction's energy is capped here, so one strong edge does not dominate its cell.
    static let clip: Float = 0.5
    /// Keeps the normalisation of flat areas (a bare wall) from blowing up their faint noise.
    static let flatFloor: Float = 1e-4
    /// The first bytes of a stored signature, with its format's version.
    static let magic: [UInt8] = Array("MPS1".utf8)

    /// Cells across and down.
    public let columns: Int
    public let rows: Int
    /// `bins` values per cell, row by row, each 0 to 255 (the square root of the capped energy).
    public let values: [UInt8]

    /// The signature of `raster` (any size).
    public init(_ raster: Raster) {
        self.init(LumaPlane(raster, longSide: Self.longSide))
    }

    /// The signature of a brightness plane already at the working size.
    init(_ plane: LumaPlane) {
        let columns = plane.width / Self.cell
        let rows = plane.height / Self.cell
        self.columns = columns
        self.rows = rows
        values = Self.histograms(plane, columns: columns, rows: rows)
    }

    /// A signature from values read back (`data`).
    init(columns: Int, rows: Int, values: [UInt8]) {
        self.columns = columns
        self.rows = rows
        self.values = values
    }

    /// The signature as bytes to store: "MPS1", columns and rows (16-bit little-endian), the values.
    public var data: Data {
        var bytes = Self.magic
        for n in [columns, rows] { bytes += [UInt8(n & 0xff), UInt8((n >> 8) & 0xff)] }
        return Data(bytes + values)
    }

    /// A stored signature (`data`); nil for bytes that are not one.
    public init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, Array(bytes[0..<4]) == Self.magic else { return nil }
        let columns = Int(bytes[4]) | Int(bytes[5]) << 8
        let rows = Int(bytes[6]) | Int(bytes[7]) << 8
        guard bytes.count == 8 + columns * rows * Self.bins else { return nil }
        self.init(columns: columns, rows: rows, values: Array(bytes[8...]))
    }

    /// The values as floats (0 to 1) for matching.
    var levels: [Float] { values.map { Float($0) / 255 } }

    /// Each cell's direction histogram: central differences, each pixel's magnitude split between the
    /// two nearest directions, then normalised by the mean energy of the 3x3 cells around it.
    private static func histograms(_ plane: LumaPlane, columns: Int, rows: Int) -> [UInt8] {
        let w = plane.width
        let h = plane.height
        var histogram = [Float](repeating: 0, count: columns * rows * bins)
        plane.values.withUnsafeBufferPointer { l in
            for y in 0..<(rows * cell) {
                for x in 0..<(columns * cell) {
                    let i = y * w + x
                    let gx: Float = (x > 0 && x < w - 1) ? (l[i + 1] - l[i - 1]) * 0.5 : 0
                    let gy: Float = (y > 0 && y < h - 1) ? (l[i + w] - l[i - w]) * 0.5 : 0
                    let m = (gx * gx + gy * gy).squareRoot()
                    guard m > 0 else { continue }
                    var angle = atan2(gy, gx)
                    if angle < 0 { angle += .pi }
                    let position = angle / .pi * Float(bins) - 0.5
                    let lower = position.rounded(.down)
                    let share = position - lower
                    let low = (Int(lower) + bins) % bins
                    let base = ((y / cell) * columns + x / cell) * bins
                    histogram[base + low] += m * (1 - share)
                    histogram[base + (low + 1) % bins] += m * share
                }
            }
        }
        var energy = [Float](repeating: 0, count: columns * rows)
        for c in energy.indices {
            var e: Float = 0
            for b in 0..<bins { e += histogram[c * bins + b] * histogram[c * bins + b] }
            energy[c] = e
        }
        var out = [UInt8](repeating: 0, count: histogram.count)
        let top = clip.squareRoot()
        for cy in 0..<rows {
            for cx in 0..<columns {
                var around: Float = 0
                for dy in -1...1 {
                    for dx in -1...1 {
                        let y = min(rows - 1, max(0, cy + dy))
                        let x = min(columns - 1, max(0, cx + dx))
                        around += energy[y * columns + x]
                    }
                }
                let scale = 1 / (around / 9 + flatFloor).squareRoot()
                let base = (cy * columns + cx) * bins
                for b in 0..<bins {
                    let v = min(clip, histogram[base + b] * scale).squareRoot()
                    out[base + b] = UInt8(min(255, (v / top * 255).rounded()))
                }
            }
        }
        return out
    }
}

/// A photo's brightness (0 to 1) at the scene signature's working size, which can be turned and mirrored.
struct LumaPlane {
    let width: Int
    let height: Int
    let values: [Float]

    /// `raster` area-averaged to `longSide` (or kept, when smaller), as luma.
    init(_ raster: Raster, longSide: Int) {
        let image = AnalysisImage(raster, longSide: longSide)
        self.init(width: image.width, height: image.height, values: image.luma)
    }

    init(width: Int, height: Int, values: [Float]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// Left and right swapped.
    func mirrored() -> LumaPlane {
        var out = values
        for y in 0..<height {
            for x in 0..<width { out[y * width + x] = values[y * width + width - 1 - x] }
        }
        return LumaPlane(width: width, height: height, values: out)
    }

    /// Turned by `degrees` about the centre (bilinear; pixels from outside take the nearest edge).
    func turned(_ degrees: Double) -> LumaPlane {
        guard degrees != 0, width > 1, height > 1 else { return self }
        let a = degrees * .pi / 180
        let c = cos(a)
        let s = sin(a)
        let cx = Double(width - 1) / 2
        let cy = Double(height - 1) / 2
        var out = [Float](repeating: 0, count: values.count)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - cx
                let dy = Double(y) - cy
                let sx = min(Double(width) - 1.001, max(0, c * dx + s * dy + cx))
                let sy = min(Double(height) - 1.001, max(0, -s * dx + c * dy + cy))
                let x0 = Int(sx)
                let y0 = Int(sy)
                let fx = Float(sx - Double(x0))
                let fy = Float(sy - Double(y0))
                let i = y0 * width + x0
                let top = values[i] * (1 - fx) + values[i + 1] * fx
                let bottom = values[i + width] * (1 - fx) + values[i + width + 1] * fx
                out[y * width + x] = top * (1 - fy) + bottom * fy
            }
        }
        return LumaPlane(width: width, height: height, values: out)
    }

    /// The plane without its first `dx` columns and `dy` rows (a sub-cell shift of the grid).
    func dropping(columns dx: Int, rows dy: Int) -> LumaPlane {
        guard dx > 0 || dy > 0, dx < width, dy < height else { return self }
        var out: [Float] = []
        out.reserveCapacity((width - dx) * (height - dy))
        for y in dy..<height { out += values[(y * width + dx)..<(y * width + width)] }
        return LumaPlane(width: width - dx, height: height - dy, values: out)
    }
}
