import Foundation
import TestFixtures
import Testing

@testable import PhotoVerification

/// The real calibration photos under ../shared/calibration/rooms (never copied into the repository).
enum CalibrationSet {
    static let folder = Repository.shared("calibration/rooms")
    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("clean").path) }

    static func samples() throws -> [LabelledSample] {
        let visible = try String(contentsOf: folder.appendingPathComponent("bed_visible.csv"), encoding: .utf8)
            .split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
            .filter { $0.count >= 3 && $0[2] == "yes" }.map { $0[0] }
        var samples: [LabelledSample] = []
        for (directory, made) in [("clean", true), ("messy", false)] {
            let names = try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent(directory).path
            )
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            for name in names {
                let file = "\(directory)/\(name)"
                let image = try ImageDecoder.decode(
                    path: folder.appendingPathComponent(file).path, workingLongSide: BedVerifier.workingLongSide)
                samples.append(
                    LabelledSample(
                        file: file, made: made, bedVisible: visible.contains(file),
                        statistics: PixelStatistics(image.raster)))
            }
        }
        return samples
    }
}

@Suite(.enabled(if: CalibrationSet.available, "skipped: no calibration photos at ../shared/calibration/rooms"))
struct CalibrationSetTests {
    @Test func refittingReproducesTheShippedModelAndItsFigures() throws {
        let samples = try CalibrationSet.samples()
        #expect(samples.count == 96)
        let shipped = BedModel.builtIn
        let fitter = BedModelFitter(
            features: shipped.features, l2Penalty: shipped.calibration.l2Penalty, folds: shipped.calibration.folds,
            repeats: shipped.calibration.repeats)
        let refitted = fitter.calibrate(samples, data: shipped.calibration.data)
        #expect(refitted.calibration == shipped.calibration)
        #expect(refitted.photoLimits == shipped.photoLimits)
        for (a, b) in zip(refitted.weights, shipped.weights) { #expect(abs(a - b) < 1e-9) }
    }

    @Test func theShippedModelJudgesTheCalibrationSetWell() throws {
        let samples = try CalibrationSet.samples()
        let verifier = BedVerifier()
        let madeHits = samples.filter { $0.made && verifier.judge($0.statistics).made }.count
        let notMadeHits = samples.filter { !$0.made && !verifier.judge($0.statistics).made }.count
        let balanced = (Double(madeHits) / 48 + Double(notMadeHits) / 48) / 2
        // Fitted on these photos, so this is the training figure the model file records.
        #expect(abs(balanced - verifier.model.calibration.trainingBalancedAccuracy) < 1e-3)
        #expect(verifier.model.calibration.balancedAccuracy >= 0.8)
    }

    @Test func noCalibrationPhotoIsRefusedAsNotAPhoto() throws {
        let samples = try CalibrationSet.samples()
        let verifier = BedVerifier()
        let refused = samples.filter { verifier.judge($0.statistics).notAPhoto != nil }.map(\.file)
        #expect(refused.isEmpty, "refused as not a photo: \(refused)")
        // Held back too: limits fitted without a photo's fold never refused it.
        #expect(verifier.model.calibration.heldBackNotAPhoto == 0)
    }
}
