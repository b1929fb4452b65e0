import Foundation
import Testing

@testable import PhotoVerification

@Suite("EXIF orientation and DCT scaling")
struct OrientationAndScalingTests {
    @Test("every orientation displays red top left, green top right, blue bottom left", arguments: 1...8)
    func orientation(_ orientation: Int) throws {
        let decoded = try ImageDecoder.decodeFullSize(path: Samples.path("orientation-\(orientation).jpg"))
        #expect(decoded.info.orientation == orientation)
        let swaps = orientation >= 5
        #expect(decoded.info.width == (swaps ? 64 : 96) && decoded.info.height == (swaps ? 96 : 64))
        #expect(decoded.info.displayWidth == 96 && decoded.info.displayHeight == 64)
        let raster = decoded.raster
        #expect(raster.width == 96 && raster.height == 64)
        expectPixel(raster, 5, 2, (40, 0, 0), tolerance: 24)  // the dark stripe along the top of the red quadrant
        expectPixel(raster, 40, 24, (220, 30, 30), tolerance: 24)
        expectPixel(raster, 70, 16, (30, 200, 40), tolerance: 24)
        expectPixel(raster, 16, 48, (30, 40, 210), tolerance: 24)
        expectPixel(raster, 70, 48, (250, 250, 250), tolerance: 24)
    }

    @Test(
        "the JPEG scale is the smallest whose long side still covers the working size",
        arguments: [(16, 8, 16), (17, 4, 32), (32, 4, 32), (33, 2, 64), (64, 2, 64), (65, 1, 128), (512, 1, 128)])
    func jpegScale(_ working: Int, _ scale: Int, _ longSide: Int) throws {
        let decoded = try ImageDecoder.decode(path: Samples.path("baseline.jpg"), workingLongSide: working)
        #expect(decoded.scale == scale)
        #expect(decoded.raster.width == longSide)
        #expect(decoded.raster.height == longSide * 3 / 4)
    }

    @Test("a scaled, rotated JPEG keeps its orientation")
    func scaledOrientation() throws {
        let decoded = try ImageDecoder.decode(path: Samples.path("orientation-6.jpg"), workingLongSide: 24)
        #expect(decoded.scale == 4)
        #expect(decoded.raster.width == 24 && decoded.raster.height == 16)
        expectPixel(decoded.raster, 4, 6, (220, 30, 30), tolerance: 40)
        expectPixel(decoded.raster, 20, 12, (250, 250, 250), tolerance: 40)
    }

    @Test("PNG is reduced by the same rule with a box filter")
    func pngScale() throws {
        let decoded = try ImageDecoder.decode(path: Samples.path("interlaced.png"), workingLongSide: 16)
        #expect(decoded.scale == 4)
        #expect(decoded.raster.width == 16 && decoded.raster.height == 12)
        expectPixel(decoded.raster, 14, 10, (250, 250, 250))
        let full = try ImageDecoder.decodeFullSize(path: Samples.path("interlaced.png"))
        for (a, b) in zip(decoded.raster.channelMeans(), full.raster.channelMeans()) { #expect(abs(a - b) < 1) }
    }

    @Test("scale factors by the rule")
    func scaleFactor() {
        #expect(ImageDecoder.scaleFactor(width: 4032, height: 3024, workingLongSide: 512) == 4)
        #expect(ImageDecoder.scaleFactor(width: 4096, height: 3072, workingLongSide: 512) == 8)
        #expect(ImageDecoder.scaleFactor(width: 1000, height: 800, workingLongSide: 512) == 1)
        #expect(ImageDecoder.scaleFactor(width: 1024, height: 800, workingLongSide: 512) == 2)
        #expect(ImageDecoder.scaleFactor(width: 4032, height: 3024, workingLongSide: 0) == 1)
    }

    @Test("raster orientation maps pixels as EXIF defines")
    func rasterOrientation() {
        // 3x2 stored: a b c / d e f (one byte per pixel in the red channel).
        let stored = Raster(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6].flatMap { [UInt8($0), 0, 0] })
        func reds(_ raster: Raster) -> [UInt8] {
            stride(from: 0, to: raster.pixels.count, by: 3).map { raster.pixels[$0] }
        }
        #expect(reds(stored.oriented(1)) == [1, 2, 3, 4, 5, 6])
        #expect(reds(stored.oriented(2)) == [3, 2, 1, 6, 5, 4])
        #expect(reds(stored.oriented(3)) == [6, 5, 4, 3, 2, 1])
        #expect(reds(stored.oriented(4)) == [4, 5, 6, 1, 2, 3])
        #expect(reds(stored.oriented(5)) == [1, 4, 2, 5, 3, 6])
        #expect(reds(stored.oriented(6)) == [4, 1, 5, 2, 6, 3])
        #expect(reds(stored.oriented(7)) == [6, 3, 5, 2, 4, 1])
        #expect(reds(stored.oriented(8)) == [3, 6, 2, 5, 1, 4])
        #expect(stored.oriented(6).width == 2 && stored.oriented(6).height == 3)
    }

    @Test("box reduction averages and rounds up the size")
    func reduction() {
        let raster = Raster(width: 3, height: 1, pixels: [0, 0, 0, 100, 100, 100, 50, 50, 50])
        let reduced = raster.reduced(by: 2)
        #expect(reduced.width == 2 && reduced.height == 1)
        #expect(reduced.pixels == [50, 50, 50, 50, 50, 50])
    }
}
