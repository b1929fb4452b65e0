import Foundation
import MorningProofCore
import PhotoVerification
import Testing

/// A photo that proved one day does not prove another mirrored, upside down or as a negative.
@Suite struct MirroredRepeatTests {
    static func hash(_ raster: Raster) -> Int64 { DifferenceHash(raster).signedValue }

    static func inverted(_ raster: Raster) -> Raster {
        Raster(width: raster.width, height: raster.height, pixels: raster.pixels.map { 255 - $0 })
    }

    static func repeats(_ earlier: Raster, _ offered: Raster) -> EvidenceMatch? {
        let proof = ProofPolicy.EarlierProof(
            day: LocalDay(year: 2026, month: 3, day: 1)!, habitID: 1, sha256: "earlier", perceptualHash: hash(earlier))
        return ProofPolicy.repeated(
            sha256: "offered", perceptualHash: hash(offered), among: [proof], maxDistance: ProofPolicy.maxHashDistance)
    }

    /// EXIF orientation 2 mirrors left to right, 4 turns upside down, 3 turns half round.
    @Test(arguments: ["mirrored", "upside down", "half turned", "inverted", "mirrored and inverted"])
    func transformedCopyRepeats(_ how: String) throws {
        let photo = try ImageDecoder.decodeFullSize(path: Samples.path("scenes/made-1.jpg")).raster
        let copy =
            switch how {
            case "mirrored": photo.oriented(2)
            case "upside down": photo.oriented(4)
            case "half turned": photo.oriented(3)
            case "inverted": Self.inverted(photo)
            default: Self.inverted(photo.oriented(2))
            }
        #expect(Self.repeats(photo, copy) != nil, "a \(how) copy of yesterday's photo proved today")
    }

    @Test func anotherPhotoOfTheSceneDoesNotRepeat() throws {
        let one = try ImageDecoder.decodeFullSize(path: Samples.path("scenes/made-1.jpg")).raster
        let two = try ImageDecoder.decodeFullSize(path: Samples.path("scenes/made-2.jpg")).raster
        #expect(Self.repeats(one, two) == nil)
        #expect(Self.repeats(one, two.oriented(2)) == nil)
    }
}
