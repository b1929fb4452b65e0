import Foundation
import Testing

@testable import PhotoVerification

@Suite("Broken and hostile files are refused with a reason")
struct BrokenFileTests {
    func refusal(_ path: String, maxPixels: Int = ImageDecoder.defaultMaxPixels) -> PhotoError? {
        do {
            _ = try ImageDecoder.decode(path: path, maxPixels: maxPixels)
            return nil
        } catch let error as PhotoError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test(
        "each broken sample is refused with its kind and reason (the CLI exits 65 for each)",
        arguments: [
            ("truncated.jpg", PhotoProblem.damaged, "JPEG data ends early"),
            ("truncated.png", .damaged, "PNG data ends early"),
            ("bad-crc.png", .damaged, "CRC error"),
            ("bad-crc-iend.png", .damaged, "IEND: CRC error"),
            ("empty.jpg", .notAnImage, "the file is empty (0 bytes)"),
            ("text.jpg", .notAnImage, "plain text, not a JPEG, PNG, HEIC or WebP image"),
            ("huge-60000.jpg", .tooManyPixels, "claims 60000x60000"),
            ("huge-60000.png", .tooManyPixels, "claims 60000x60000"),
            ("many-scans.jpg", .refused, "more than 100 scans"),
        ])
    func broken(_ file: String, _ code: PhotoProblem, _ reason: String) throws {
        let error = try #require(refusal(Samples.broken(file)))
        #expect(error.code == code)
        #expect(error.path == Samples.broken(file))
        #expect(error.message.hasPrefix(Samples.broken(file) + ": "))
        #expect(error.message.contains(reason), "\(error.message)")
        // The row-by-row path used by `image info` refuses it the same way.
        #expect(throws: error) { try ImageDecoder.channelMeans(path: Samples.broken(file)) }
    }

    @Test("a missing file is its own kind (the CLI exits 66)")
    func missing() throws {
        let error = try #require(refusal(Samples.path("no-such-photo.jpg")))
        #expect(error.code == .noSuchFile)
        #expect(error.message.contains("no such file"))
    }

    @Test("the pixel budget is read from the header: info works, decoding is refused before allocation")
    func pixelBudget() throws {
        // Reading the header alone with a large budget shows what the file claims...
        let info = try ImageDecoder.info(path: Samples.broken("huge-60000.jpg"), maxPixels: 4_000_000_000)
        #expect(info.width == 60000 && info.height == 60000)
        // ...and the default budget refuses it at the header, naming the limit.
        let error = try #require(refusal(Samples.broken("huge-60000.png")))
        #expect(error.message.contains("over the limit of 100000000 pixels"))
        // A small budget refuses an ordinary sample too.
        let small = try #require(refusal(Samples.path("baseline.jpg"), maxPixels: 128 * 96 - 1))
        #expect(small.message.contains("128x96"))
        #expect(refusal(Samples.path("baseline.jpg"), maxPixels: 128 * 96) == nil)
    }

    @Test("the many-scans JPEG has a valid header: the scan cap is what refuses it")
    func scanCap() throws {
        let info = try ImageDecoder.info(path: Samples.broken("many-scans.jpg"))
        #expect(info.progressive)
        #expect(info.width == 16)
    }

    @Test("every truncation of a JPEG and a PNG is refused")
    func prefixes() throws {
        for file in ["progressive.jpg", "interlaced.png", "orientation-6.jpg"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Samples.path(file)))
            for length in stride(from: 0, to: data.count, by: 7) {
                let decoded = try? ImageDecoder.decode(data: data.prefix(length), name: file)
                #expect(decoded == nil, "\(file) cut to \(length) of \(data.count) bytes decoded without an error")
            }
        }
    }

    @Test("damaged EXIF never crashes and never blocks decoding")
    func damagedExif() throws {
        let tiff: [UInt8] = [
            0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0,
            0x69, 0x87, 4, 0, 1, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0,
        ]
        #expect(ExifMetadata(tiff: tiff).orientation == 6)
        #expect(ExifMetadata(tiff: tiff).dateTimeOriginal == nil)
        for length in 0..<tiff.count { _ = ExifMetadata(tiff: Array(tiff.prefix(length))) }
        #expect(ExifMetadata(tiff: [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xFF]) == ExifMetadata())
    }
}
