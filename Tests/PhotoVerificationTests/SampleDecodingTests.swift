import Foundation
import MorningProofCore
import Testing

@testable import PhotoVerification

/// Asserts a pixel is within `tolerance` of the expected colour on every channel (JPEG is lossy).
func expectPixel(
    _ raster: Raster, _ x: Int, _ y: Int, _ expected: (Int, Int, Int), tolerance: Int = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let p = raster.pixel(x: x, y: y)
    let actual = (Int(p.r), Int(p.g), Int(p.b))
    let close =
        abs(actual.0 - expected.0) <= tolerance && abs(actual.1 - expected.1) <= tolerance
        && abs(actual.2 - expected.2) <= tolerance
    #expect(
        close, "pixel (\(x), \(y)) is \(actual), expected \(expected) ± \(tolerance)", sourceLocation: sourceLocation)
}

@Suite("Decoding each sample format")
struct SampleDecodingTests {
    struct Expected: Sendable, CustomStringConvertible {
        let file: String
        let format: ImageFormat
        let width: Int
        let height: Int
        let colorSpace: String
        let bitDepth: Int
        let progressive: Bool
        let interlaced: Bool
        var description: String { file }
    }

    static let cases: [Expected] = [
        .init(
            file: "baseline.jpg", format: .jpeg, width: 128, height: 96, colorSpace: "YCbCr", bitDepth: 8,
            progressive: false, interlaced: false),
        .init(
            file: "progressive.jpg", format: .jpeg, width: 128, height: 96, colorSpace: "YCbCr", bitDepth: 8,
            progressive: true, interlaced: false),
        .init(
            file: "grayscale.jpg", format: .jpeg, width: 128, height: 96, colorSpace: "Gray", bitDepth: 8,
            progressive: false, interlaced: false),
        .init(
            file: "cmyk-adobe.jpg", format: .jpeg, width: 64, height: 48, colorSpace: "YCCK", bitDepth: 8,
            progressive: false, interlaced: false),
        .init(
            file: "rgb16.png", format: .png, width: 64, height: 32, colorSpace: "RGB", bitDepth: 16,
            progressive: false, interlaced: false),
        .init(
            file: "palette-trns.png", format: .png, width: 64, height: 32, colorSpace: "Palette", bitDepth: 8,
            progressive: false, interlaced: false),
        .init(
            file: "interlaced.png", format: .png, width: 64, height: 48, colorSpace: "RGB", bitDepth: 8,
            progressive: false, interlaced: true),
        .init(
            file: "gray-alpha.png", format: .png, width: 48, height: 32, colorSpace: "Gray+Alpha", bitDepth: 8,
            progressive: false, interlaced: false),
        .init(
            file: "gray1.png", format: .png, width: 64, height: 64, colorSpace: "Gray", bitDepth: 1,
            progressive: false, interlaced: false),
    ]

    @Test("header facts", arguments: cases)
    func header(_ expected: Expected) throws {
        let decoded = try ImageDecoder.decodeFullSize(path: Samples.path(expected.file))
        let info = decoded.info
        #expect(info.format == expected.format)
        #expect(info.width == expected.width && info.height == expected.height)
        #expect(info.colorSpace == expected.colorSpace)
        #expect(info.bitDepth == expected.bitDepth)
        #expect(info.progressive == expected.progressive)
        #expect(info.interlaced == expected.interlaced)
        #expect(info.orientation == 1)
        #expect(decoded.raster.width == expected.width && decoded.raster.height == expected.height)
        #expect(try ImageDecoder.info(path: Samples.path(expected.file)) == info)
    }

    @Test("baseline and progressive decode to the same quadrants")
    func quadrants() throws {
        for file in ["baseline.jpg", "progressive.jpg", "interlaced.png"] {
            let raster = try ImageDecoder.decodeFullSize(path: Samples.path(file)).raster
            let (w, h) = (raster.width, raster.height)
            let tolerance = file.hasSuffix(".png") ? 0 : 12
            expectPixel(raster, w / 4, h * 3 / 8, (220, 30, 30), tolerance: tolerance)
            expectPixel(raster, w * 3 / 4, h / 4, (30, 200, 40), tolerance: tolerance)
            expectPixel(raster, w / 4, h * 3 / 4, (30, 40, 210), tolerance: tolerance)
            expectPixel(raster, w * 3 / 4, h * 3 / 4, (250, 250, 250), tolerance: tolerance)
        }
    }

    @Test("row-by-row channel means equal the means of the full-size decoded raster", arguments: cases)
    func means(_ expected: Expected) throws {
        let path = Samples.path(expected.file)
        let (info, mean) = try ImageDecoder.channelMeans(path: path)
        let full = try ImageDecoder.decodeFullSize(path: path)
        #expect(info == full.info)
        #expect(mean == full.raster.channelMeans())
    }

    @Test("channel means of a rotated JPEG equal those of its upright raster")
    func rotatedMeans() throws {
        let path = Samples.path("orientation-6.jpg")
        #expect(
            try ImageDecoder.channelMeans(path: path).mean
                == ImageDecoder.decodeFullSize(path: path).raster.channelMeans())
    }

    @Test("grayscale JPEG becomes equal R, G and B")
    func grayscale() throws {
        let raster = try ImageDecoder.decodeFullSize(path: Samples.path("grayscale.jpg")).raster
        expectPixel(raster, 20, 50, (40, 40, 40), tolerance: 4)
        expectPixel(raster, 110, 50, (200, 200, 200), tolerance: 4)
    }

    @Test("Adobe CMYK: inverted ink values become the right RGB")
    func cmyk() throws {
        let raster = try ImageDecoder.decodeFullSize(path: Samples.path("cmyk-adobe.jpg")).raster
        expectPixel(raster, 10, 10, (0, 255, 255), tolerance: 12)  // cyan ink
        expectPixel(raster, 54, 10, (255, 0, 0), tolerance: 12)  // magenta + yellow ink
        expectPixel(raster, 30, 44, (0, 0, 0), tolerance: 12)  // black ink
    }

    @Test("16-bit PNG is scaled as sRGB: 32768 is 128, not 186")
    func sixteenBit() throws {
        let raster = try ImageDecoder.decodeFullSize(path: Samples.path("rgb16.png")).raster
        expectPixel(raster, 10, 10, (128, 128, 128))
        expectPixel(raster, 50, 10, (255, 0, 0))
    }

    @Test("palette tRNS and grey alpha are composited over white")
    func transparency() throws {
        let palette = try ImageDecoder.decodeFullSize(path: Samples.path("palette-trns.png")).raster
        expectPixel(palette, 5, 5, (220, 30, 30))
        expectPixel(palette, 30, 5, (255, 255, 255))
        expectPixel(palette, 60, 5, (30, 40, 210))
        let grayAlpha = try ImageDecoder.decodeFullSize(path: Samples.path("gray-alpha.png")).raster
        expectPixel(grayAlpha, 10, 5, (0, 0, 0))
        expectPixel(grayAlpha, 10, 25, (255, 255, 255))
    }

    @Test("1-bit greyscale PNG")
    func oneBit() throws {
        let raster = try ImageDecoder.decodeFullSize(path: Samples.path("gray1.png")).raster
        expectPixel(raster, 0, 0, (0, 0, 0))
        expectPixel(raster, 8, 0, (255, 255, 255))
        expectPixel(raster, 8, 8, (0, 0, 0))
    }

    @Test("EXIF capture time and offset are read raw")
    func captureTime() throws {
        let info = try ImageDecoder.info(path: Samples.path("baseline.jpg"))
        #expect(info.captureTime == "2026:11:18 07:12:05")
        #expect(info.captureOffset == "+01:00")
        let none = try ImageDecoder.info(path: Samples.path("orientation-3.jpg"))
        #expect(none.captureTime == nil && none.captureOffset == nil)
    }

    @Test("the format comes from the bytes, not the file name")
    func sniffing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp-sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpegNamedPNG = directory.appendingPathComponent("photo.png")
        let pngNamedJPEG = directory.appendingPathComponent("photo.jpg")
        try FileManager.default.copyItem(atPath: Samples.path("baseline.jpg"), toPath: jpegNamedPNG.path)
        try FileManager.default.copyItem(atPath: Samples.path("interlaced.png"), toPath: pngNamedJPEG.path)
        #expect(try ImageDecoder.decode(path: jpegNamedPNG.path).info.format == .jpeg)
        #expect(try ImageDecoder.decode(path: pngNamedJPEG.path).info.format == .png)
    }
}
