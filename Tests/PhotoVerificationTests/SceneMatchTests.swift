import Foundation
import TestFixtures
import Testing

@testable import PhotoVerification

/// The scene matcher behind reference photos: a second view of the same room matches and is not a
/// copy, another room is refused, and copies of a reference are told as copies.
@Suite struct SceneMatchTests {
    let matcher = SceneMatcher()

    static func raster(_ name: String) throws -> Raster {
        try ImageDecoder.decode(
            path: SampleImages.path("scenes/\(name)"), workingLongSide: BedVerifier.workingLongSide
        ).raster
    }

    func verdict(_ proof: Raster, _ references: [Raster]) -> SceneVerdict {
        matcher.compare(SceneProbe(proof), with: references.map(SceneSignature.init))
    }

    @Test func aSecondViewOfTheSameRoomMatchesAndIsNotACopy() throws {
        for (index, name) in ["made-1.jpg", "made-2.jpg", "made-3.jpg"].enumerated() {
            let views = SceneCalibration.views(of: try Self.raster(name), index: index)
            let verdict = verdict(views.proof, [views.reference])
            guard case .samePlace(let score) = verdict else {
                Issue.record("\(name): \(verdict)")
                continue
            }
            #expect(score >= matcher.samePlaceScore, "\(name)")
        }
    }

    @Test func aPhotoOfAnotherRoomIsRefused() throws {
        let views = SceneCalibration.views(of: try Self.raster("made-2.jpg"), index: 1)
        let verdict = verdict(views.proof, [try Self.raster("made-3.jpg"), try Self.raster("unmade-1.jpg")])
        guard case .otherPlace(let score) = verdict else {
            Issue.record("another room was let through: \(verdict)")
            return
        }
        #expect(score < matcher.samePlaceScore)
    }

    @Test func copiesOfAReferenceAreCopies() throws {
        let reference = try Self.raster("made-1.jpg")
        let copies =
            SceneCalibration.copies(of: reference, index: 0) + SceneCalibration.copies(of: reference, index: 1) + [
                try Self.raster("made-1-smaller-copy.jpg"),
                reference.cropped(x: 0, y: 0, width: reference.width * 9 / 10, height: reference.height).exposed(
                    by: 1.2),
            ]
        for (index, copy) in copies.enumerated() {
            let verdict = verdict(copy, [try Self.raster("made-3.jpg"), reference])
            guard case .copy(let which, _) = verdict else {
                Issue.record("copy \(index) not told as a copy: \(verdict)")
                continue
            }
            #expect(which == 1, "copy \(index)")
        }
    }

    @Test func aSignatureKeepsNoPictureAndRoundTripsThroughItsBytes() throws {
        let photo = try Self.raster("made-1.jpg")
        let signature = SceneSignature(photo)
        #expect(signature.columns == SceneSignature.longSide / SceneSignature.cell)
        #expect(signature.values.count == signature.columns * signature.rows * SceneSignature.bins)
        #expect(signature.data.count < 8 + 24 * 24 * 8)
        #expect(SceneSignature(data: signature.data) == signature)
        #expect(SceneSignature(data: Data("MPS1".utf8)) == nil)
        #expect(SceneSignature(data: signature.data.dropLast()) == nil)
        #expect(SceneSignature(data: Data(repeating: 7, count: 100)) == nil)
    }

    @Test func aFlatOrTinyPictureDoesNotCrashTheMatcher() {
        let flat = Raster(width: 40, height: 30, pixels: [UInt8](repeating: 128, count: 40 * 30 * 3))
        let tiny = Raster(width: 3, height: 2, pixels: [UInt8](repeating: 9, count: 3 * 2 * 3))
        for photo in [flat, tiny] {
            for reference in [flat, tiny] {
                if case .samePlace = verdict(photo, [reference]) { Issue.record("a blank picture matched") }
            }
        }
    }
}

/// The calibration rooms (../shared/calibration/rooms), where this machine has them: a few rooms,
/// each one's second view matched and every other room refused. `scripts/calibrate-scenes` measures all.
@Suite(.enabled(if: CalibrationPhotos.available, "skipped: no calibration photos at ../shared/calibration/rooms"))
struct SceneCalibrationRoomTests {
    @Test func aFewRoomsMatchThemselvesAndRefuseEachOther() throws {
        let folder = CalibrationPhotos.folder.path
        let names = ["clean/2.png", "clean/12.png", "messy/4.png", "messy/16.png", "clean/40.png", "messy/30.png"]
        let photos = try names.map {
            try ImageDecoder.decode(path: folder + "/" + $0, workingLongSide: BedVerifier.workingLongSide).raster
        }
        let rates = SceneCalibration(workers: 2).measure(photos)
        #expect(rates.falseRefusals == 0, "\(rates.report)")
        #expect(rates.falseAcceptances == 0, "\(rates.report)")
        #expect(rates.missedCopies == 0, "\(rates.report)")
    }
}
