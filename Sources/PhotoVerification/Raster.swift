/// An RGB image, 8 bits per channel, row-major, no padding: `pixels.count == width * height * 3`.
public struct Raster: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// R, G, B bytes of each pixel, row after row from the top left.
    public let pixels: [UInt8]

    /// A raster over `pixels`, which must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "raster size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A pixel as (red, green, blue); x from the left, y from the top.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }

    /// The mean of each channel, 0 to 255, as [red, green, blue].
    public func channelMeans() -> [Double] {
        guard width > 0, height > 0 else { return [0, 0, 0] }
        var sums: (UInt64, UInt64, UInt64) = (0, 0, 0)
        pixels.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                sums.0 += UInt64(buffer[offset])
                sums.1 += UInt64(buffer[offset + 1])
                sums.2 += UInt64(buffer[offset + 2])
                offset += 3
            }
        }
        let count = Double(width * height)
        return [Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count]
    }

    /// This raster shrunk by an integer `factor`, each output pixel the average of a factor x factor box
    /// (boxes at the right and bottom edges are clipped). The output size rounds up, like libjpeg's scaling.
    public func reduced(by factor: Int) -> Raster {
        guard factor > 1, width > 0, height > 0 else { return self }
        let outWidth = (width + factor - 1) / factor
        let outHeight = (height + factor - 1) / factor
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        pixels.withUnsafeBufferPointer { source in
            var sums = [UInt32](repeating: 0, count: outWidth * 3)
            for outY in 0..<outHeight {
                for i in sums.indices { sums[i] = 0 }
                let y0 = outY * factor
                let y1 = min(y0 + factor, height)
                for y in y0..<y1 {
                    var offset = y * width * 3
                    for x in 0..<width {
                        let column = (x / factor) * 3
                        sums[column] += UInt32(source[offset])
                        sums[column + 1] += UInt32(source[offset + 1])
                        sums[column + 2] += UInt32(source[offset + 2])
                        offset += 3
                    }
                }
                for outX in 0..<outWidth {
                    let x0 = outX * factor
                    let count = UInt32((min(x0 + factor, width) - x0) * (y1 - y0))
                    for channel in 0..<3 {
                        out[(outY * outWidth + outX) * 3 + channel] = UInt8(
                            (sums[outX * 3 + channel] + count / 2) / count)
                    }
                }
            }
        }
        return Raster(width: outWidth, height: outHeight, pixels: out)
    }

    /// This raster turned upright for display according to EXIF `orientation` (1 to 8; others leave it as is).
    public func oriented(_ orientation: Int) -> Raster {
        guard (2...8).contains(orientation) else { return self }
        let w = width
        let h = height
        let swaps = orientation >= 5
        let outWidth = swaps ? h : w
        let outHeight = swaps ? w : h
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for dy in 0..<outHeight {
                    for dx in 0..<outWidth {
                        // Where the displayed pixel (dx, dy) sits in the stored image.
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - dx, dy)
                        case 3: (sx, sy) = (w - 1 - dx, h - 1 - dy)
                        case 4: (sx, sy) = (dx, h - 1 - dy)
                        case 5: (sx, sy) = (dy, dx)
                        case 6: (sx, sy) = (dy, h - 1 - dx)
                        case 7: (sx, sy) = (w - 1 - dy, h - 1 - dx)
                        default: (sx, sy) = (w - 1 - dy, dx)
                        }
                        let from = (sy * w + sx) * 3
                        let to = (dy * outWidth + dx) * 3
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                    }
                }
            }
        }
        return Raster(width: outWidth, height: outHeight, pixels: out)
    }
}
