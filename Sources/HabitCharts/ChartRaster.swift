import CImageCodecs
import Foundation
import MorningProofCore

/// A picture's pixels: RGBA, 8 bits per channel, row by row from the top.
public struct ChartRaster: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// The pixels as a PNG file, written by libpng (through the C shim).
    public func png() throws -> Data {
        var size = 0
        var message = [CChar](repeating: 0, count: Int(MPIMG_MESSAGE_CAPACITY))
        var output: [UInt8] = []
        let status = pixels.withUnsafeBufferPointer { source -> Int32 in
            // First the size the PNG needs, then the PNG itself.
            let sizing = mpimg_png_encode_rgba(
                source.baseAddress, UInt32(width), UInt32(height), nil, &size, &message, message.count)
            guard sizing == Int32(MPIMG_OK.rawValue) else { return sizing }
            output = [UInt8](repeating: 0, count: size)
            return mpimg_png_encode_rgba(
                source.baseAddress, UInt32(width), UInt32(height), &output, &size, &message, message.count)
        }
        guard status == Int32(MPIMG_OK.rawValue) else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MorningProofError.ioError("cannot encode the chart as PNG (\(text.isEmpty ? "status \(status)" : text))")
        }
        return Data(output.prefix(size))
    }

    /// Blends `color` over the pixel at (x, y) with `coverage` (0 to 1) of its alpha.
    mutating func blend(_ x: Int, _ y: Int, _ color: RGBA, coverage: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height, coverage > 0 else { return }
        let alpha = Double(color.a) / 255 * min(1, coverage)
        let index = (y * width + x) * 4
        func mix(_ old: UInt8, _ new: UInt8) -> UInt8 {
            UInt8((Double(old) * (1 - alpha) + Double(new) * alpha).rounded())
        }
        pixels[index] = mix(pixels[index], color.r)
        pixels[index + 1] = mix(pixels[index + 1], color.g)
        pixels[index + 2] = mix(pixels[index + 2], color.b)
        pixels[index + 3] = UInt8(min(255, (Double(pixels[index + 3]) * (1 - alpha) + 255 * alpha).rounded()))
    }
}

extension ChartDrawing {
    /// Draws every mark, in order, on a transparent canvas (the first mark is the background).
    func raster(theme: ChartTheme) -> ChartRaster {
        var raster = ChartRaster(width: width, height: height)
        for mark in marks {
            switch mark {
            case .rect(let x, let y, let w, let h, let radius, let ink):
                raster.fill(x: x, y: y, width: w, height: h, radius: radius, color: ink.color(theme))
            case .frame(let x, let y, let w, let h, let t, let ink):
                let color = ink.color(theme)
                raster.fill(x: x, y: y, width: w, height: t, radius: 0, color: color)
                raster.fill(x: x, y: y + h - t, width: w, height: t, radius: 0, color: color)
                raster.fill(x: x, y: y + t, width: t, height: h - 2 * t, radius: 0, color: color)
                raster.fill(x: x + w - t, y: y + t, width: t, height: h - 2 * t, radius: 0, color: color)
            case .text(let text, let x, let y, let scale, let ink):
                raster.write(text, x: x, y: y, scale: scale, color: ink.color(theme))
            case .line(let points, let width, let ink):
                raster.stroke(points, width: width, color: ink.color(theme))
            case .area(let points, let baseline, let ink):
                raster.fillUnder(points, baseline: baseline, color: ink.color(theme))
            }
        }
        return raster
    }
}

extension ChartRaster {
    /// A rectangle whose corners are quarter circles of `radius`, their edges antialiased.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, radius: Int, color: RGBA) {
        let r = Double(radius)
        for py in y..<(y + h) {
            for px in x..<(x + w) {
                var coverage = 1.0
                if radius > 0 {
                    // The nearest corner's circle centre, when the pixel lies in a corner square.
                    let cx = px < x + radius ? Double(x) + r : px >= x + w - radius ? Double(x + w) - r : nil
                    let cy = py < y + radius ? Double(y) + r : py >= y + h - radius ? Double(y + h) - r : nil
                    if let cx, let cy {
                        let distance = hypot(Double(px) + 0.5 - cx, Double(py) + 0.5 - cy)
                        coverage = min(1, max(0, r + 0.5 - distance))
                    }
                }
                blend(px, py, color, coverage: coverage)
            }
        }
    }

    /// Text in the bitmap font; a character without a glyph draws as `?`.
    mutating func write(_ text: String, x: Int, y: Int, scale: Int, color: RGBA) {
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let left = x + index * BitmapFont.advance * scale
            for row in 0..<BitmapFont.height {
                for column in 0..<BitmapFont.width where BitmapFont.isSet(scalar, column: column, row: row) {
                    fill(x: left + column * scale, y: y + row * scale, width: scale, height: scale, radius: 0, color: color)
                }
            }
        }
    }

    /// A polyline `width` pixels wide with round joins: each pixel takes the coverage of the segment
    /// nearest to it, blended once.
    mutating func stroke(_ points: [Point], width lineWidth: Double, color: RGBA) {
        let half = lineWidth / 2
        var coverage = [Double](repeating: 0, count: width * height)
        for (a, b) in zip(points, points.dropFirst().isEmpty ? points : Array(points.dropFirst())) {
            let minX = max(0, Int((min(a.x, b.x) - half - 1).rounded(.down)))
            let maxX = min(width - 1, Int((max(a.x, b.x) + half + 1).rounded(.up)))
            let minY = max(0, Int((min(a.y, b.y) - half - 1).rounded(.down)))
            let maxY = min(height - 1, Int((max(a.y, b.y) + half + 1).rounded(.up)))
            guard minX <= maxX, minY <= maxY else { continue }
            for py in minY...maxY {
                for px in minX...maxX {
                    let d = Self.distance(Point(x: Double(px) + 0.5, y: Double(py) + 0.5), a, b)
                    let c = min(1, max(0, half + 0.5 - d))
                    let index = py * width + px
                    if c > coverage[index] { coverage[index] = c }
                }
            }
        }
        for index in coverage.indices where coverage[index] > 0 {
            blend(index % width, index / width, color, coverage: coverage[index])
        }
    }

    /// The area between the polyline (points in increasing x) and `baseline`, its top edge antialiased.
    mutating func fillUnder(_ points: [Point], baseline: Double, color: RGBA) {
        guard let first = points.first, let last = points.last else { return }
        var segment = 0
        for px in max(0, Int(first.x))..<min(width, Int(last.x.rounded(.up))) {
            let x = Double(px) + 0.5
            while segment + 1 < points.count - 1, points[segment + 1].x < x { segment += 1 }
            let a = points[segment], b = points[min(segment + 1, points.count - 1)]
            let t = b.x == a.x ? 0 : min(1, max(0, (x - a.x) / (b.x - a.x)))
            let top = a.y + (b.y - a.y) * t
            for py in max(0, Int(top))..<min(height, Int(baseline)) {
                blend(px, py, color, coverage: min(1, Double(py + 1) - top))
            }
        }
    }

    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        let t = length == 0 ? 0 : min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length))
        return hypot(p.x - a.x - t * dx, p.y - a.y - t * dy)
    }
}
