import Foundation

/// The changes a second photo of the same place, or a copy of a photo, brings: a crop, another
/// exposure, a small turn, a mirror. The scene matcher's calibration and tests make them.
extension Raster {
    /// The part from column `x`, row `y`, `width` by `height` pixels (clipped to the raster).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Raster {
        let x0 = min(max(0, x), width)
        let y0 = min(max(0, y), height)
        let x1 = min(width, x0 + max(0, w))
        let y1 = min(height, y0 + max(0, h))
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0) * 3)
        for row in y0..<y1 { out += pixels[((row * width + x0) * 3)..<((row * width + x1) * 3)] }
        return Raster(width: x1 - x0, height: y1 - y0, pixels: out)
    }

    /// Every channel multiplied by `gain` (1.2: 20% brighter), clipped to 0...255.
    public func exposed(by gain: Double) -> Raster {
        Raster(width: width, height: height, pixels: pixels.map { UInt8(min(255, (Double($0) * gain).rounded())) })
    }

    /// Left and right swapped.
    public func mirrored() -> Raster {
        var out = pixels
        for y in 0..<height {
            for x in 0..<width {
                let from = (y * width + width - 1 - x) * 3
                let to = (y * width + x) * 3
                out[to] = pixels[from]
                out[to + 1] = pixels[from + 1]
                out[to + 2] = pixels[from + 2]
            }
        }
        return Raster(width: width, height: height, pixels: out)
    }

    /// Turned by `degrees` about the centre (bilinear), then cropped to the part that is still all
    /// picture, the way a phone held a little crooked frames a slightly smaller scene.
    public func turned(by degrees: Double) -> Raster {
        guard degrees != 0, width > 2, height > 2 else { return self }
        let a = degrees * .pi / 180
        let c = cos(a)
        let s = sin(a)
        let margin = Int((abs(s) * Double(max(width, height))).rounded(.up)) + 1
        guard width > 2 * margin + 1, height > 2 * margin + 1 else { return self }
        let cx = Double(width - 1) / 2
        let cy = Double(height - 1) / 2
        let outWidth = width - 2 * margin
        let outHeight = height - 2 * margin
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                let dx = Double(ox + margin) - cx
                let dy = Double(oy + margin) - cy
                let sx = min(Double(width) - 1.001, max(0, c * dx + s * dy + cx))
                let sy = min(Double(height) - 1.001, max(0, -s * dx + c * dy + cy))
                let x0 = Int(sx)
                let y0 = Int(sy)
                let fx = sx - Double(x0)
                let fy = sy - Double(y0)
                for channel in 0..<3 {
                    func at(_ x: Int, _ y: Int) -> Double { Double(pixels[(y * width + x) * 3 + channel]) }
                    let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                    let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                    out[(oy * outWidth + ox) * 3 + channel] = UInt8(
                        min(255, max(0, (top * (1 - fy) + bottom * fy).rounded())))
                }
            }
        }
        return Raster(width: outWidth, height: outHeight, pixels: out)
    }
}
