import Foundation
import Testing

@testable import PhotoVerification

/// A phone's own formats (issue 39): an iPhone's HEIC and Android's WebP are decoded as JPEG is, with
/// the same verdict, the same EXIF capture time and the same limits. The samples are SampleImages/phone/
/// (scripts/make-sample-images: heif-enc and cwebp from SampleImages/scenes/).
@Suite("HEIC and WebP photos are judged as their JPEG is")
struct PhoneFormatTests {
    static let scenes = ["made-1", "unmade-1", "made-2-exif-2026-11-18"]
    static let formats = ["heic", "webp"]

    static func phone(_ name: String, _ format: String) -> String { Samples.path("phone/\(name).\(format)") }

    @Test("the same picture gets the same verdict in JPEG, HEIC and WebP", arguments: scenes, formats)
    func sameVerdict(_ scene: String, _ format: String) throws {
        let jpeg = try BedVerifier().verify(path: Scenes.path("\(scene).jpg"))
        let phone = try BedVerifier().verify(path: Self.phone(scene, format))
        #expect(phone.info.format.rawValue == format)
        #expect(phone.info.width == jpeg.info.width && phone.info.height == jpeg.info.height)
        #expect(phone.verdict.made == jpeg.verdict.made, "\(scene).\(format): \(phone.verdict.reasons)")
        // Lossy re-encoding moves the confidence a little, never the verdict.
        #expect(abs(phone.verdict.confidence - jpeg.verdict.confidence) < 0.1)
        // The pictures are the same within coding noise: their mean colour agrees to 2 levels of 255.
        let jpegMeans = try ImageDecoder.channelMeans(path: Scenes.path("\(scene).jpg")).mean
        let phoneMeans = try ImageDecoder.channelMeans(path: Self.phone(scene, format)).mean
        for (a, b) in zip(jpegMeans, phoneMeans) { #expect(abs(a - b) < 2, "\(jpegMeans) against \(phoneMeans)") }
    }

    @Test("the capture time is read from the HEIF Exif block and the WebP EXIF chunk", arguments: formats)
    func captureTime(_ format: String) throws {
        let jpeg = try ImageDecoder.info(path: Scenes.path("made-2-exif-2026-11-18.jpg"))
        let info = try ImageDecoder.info(path: Self.phone("made-2-exif-2026-11-18", format))
        #expect(jpeg.captureTime == "2026:11:18 07:45:00")
        #expect(info.captureTime == jpeg.captureTime && info.captureOffset == jpeg.captureOffset)
        #expect(try ImageDecoder.info(path: Self.phone("made-1", format)).captureTime == nil)
    }

    @Test("the format is read from the bytes, not the name", arguments: formats)
    func sniffedByContent(_ format: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.phone("made-1", format)))
        let decoded = try ImageDecoder.decode(data: data, name: "bed.jpg")
        #expect(decoded.info.format.rawValue == format)
        #expect(decoded.raster.width == 640 && decoded.scale == 1)
    }

    @Test(
        "a header claiming 100000x100000 is refused before decoding, with the size and the limit",
        arguments: formats)
    func hugeHeader(_ format: String) throws {
        let path = Samples.broken("huge-100000.\(format)")
        let error = try #require(throws: PhotoError.self) { try ImageDecoder.decode(path: path) }
        #expect(error.code == .tooManyPixels)
        #expect(error.message.contains("claims 100000x100000"), "\(error.message)")
        #expect(error.message.contains("over the limit of 100000000 pixels"), "\(error.message)")
        #expect(throws: error) { try ImageDecoder.channelMeans(path: path) }
        // The header alone, with a budget that covers it, says what a HEIC claims; libwebp refuses any
        // canvas of 2^32 pixels or more itself, as a damaged file.
        if format == "heic" {
            let info = try ImageDecoder.info(path: path, maxPixels: 20_000_000_000)
            #expect(info.width == 100000 && info.height == 100000)
        } else {
            let damaged = try #require(throws: PhotoError.self) {
                try ImageDecoder.info(path: path, maxPixels: 20_000_000_000)
            }
            #expect(damaged.code == .damaged)
        }
    }

    @Test("a cut file is refused as truncated, and so is every cut of a good one", arguments: formats)
    func truncated(_ format: String) throws {
        let error = try #require(throws: PhotoError.self) {
            try ImageDecoder.decode(path: Samples.broken("truncated.\(format)"))
        }
        #expect(error.code == .damaged)
        #expect(error.message.contains("data ends early: the file is truncated"), "\(error.message)")
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.phone("made-2-exif-2026-11-18", format)))
        for length in stride(from: 0, to: data.count, by: 97) {
            let decoded = try? ImageDecoder.decode(data: data.prefix(length), name: "cut.\(format)")
            #expect(decoded == nil, "cut to \(length) of \(data.count) bytes decoded without an error")
        }
    }

    @Test("a damaged body is refused with a reason, not a crash", arguments: formats)
    func damaged(_ format: String) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: Self.phone("unmade-1", format)))
        // Overwrite a stretch in the middle of the coded picture.
        let middle = data.count / 2
        data.replaceSubrange(middle..<(middle + 256), with: [UInt8](repeating: 0xA5, count: 256))
        do {
            let decoded = try ImageDecoder.decode(data: data, name: "damaged.\(format)")
            // A codec may conceal some damage; what it returns is still a whole picture.
            #expect(decoded.raster.width == 640)
        } catch let error as PhotoError {
            #expect(error.code == .damaged, "\(error.message)")
            #expect(error.message.hasPrefix("damaged.\(format): "))
        }
    }
}
