import Foundation
import Testing

@testable import PhotoVerification

/// A HEIC whose header (its ispe box) says 100x100 while its HEVC picture is 2000x2000 (made by
/// scripts/sample-images/phone-formats.py). libheif 1.15 checks its limits on the header and then decodes
/// the real picture: a 57 KB file saying 100x100 and holding 16000x16000 cost 1.5 GB. The decoder reads
/// the picture's size from the HEVC stream (its sequence parameter set) before libheif decodes anything.
@Suite("a HEIC whose header lies about its size is refused before decoding")
struct LyingHeicTests {
    static let path = Samples.broken("ispe-lie-2000-as-100.heic")

    @Test("over the budget by its real size, it is refused as too many pixels, naming both sizes")
    func overBudget() throws {
        let error = try #require(throws: PhotoError.self) {
            try ImageDecoder.decode(path: Self.path, maxPixels: 1_000_000)
        }
        #expect(error.code == .tooManyPixels, "\(error.message)")
        #expect(error.message.contains("says 100x100 but the picture is 2000x2000"), "\(error.message)")
        #expect(error.message.contains("over the limit of 1000000 pixels; refused before decoding"), "\(error.message)")
        // The header alone is refused too, and so is the verifier's decode: the budget counts the real size.
        let header = try #require(throws: PhotoError.self) {
            try ImageDecoder.info(path: Self.path, maxPixels: 1_000_000)
        }
        #expect(header.code == .tooManyPixels)
        let verified = try #require(throws: PhotoError.self) {
            try BedVerifier().verify(path: Self.path, maxPixels: 1_000_000)
        }
        #expect(verified.code == .tooManyPixels)
    }

    @Test("within the budget, the lie itself is the refusal")
    func withinBudget() throws {
        let error = try #require(throws: PhotoError.self) { try ImageDecoder.decode(path: Self.path) }
        #expect(error.code == .damaged)
        #expect(
            error.message.contains("is not what its header says: the header says 100x100 but the picture is 2000x2000"),
            "\(error.message)")
        // What the header claims is still what `info` reports when the real size is within the budget.
        let info = try ImageDecoder.info(path: Self.path)
        #expect(info.width == 100 && info.height == 100)
    }

    @Test("an honest HEIC's pictures pass the same checks and decode as before")
    func honestFilesDecode() throws {
        for name in ["made-1", "unmade-1", "made-2-exif-2026-11-18"] {
            let decoded = try ImageDecoder.decode(path: Samples.path("phone/\(name).heic"), maxPixels: 307_200)
            #expect(decoded.info.width == 640 && decoded.info.height == 480)
        }
    }
}
