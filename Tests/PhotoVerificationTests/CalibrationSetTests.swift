import Foundation
import MorningProofCore
import TestFixtures
import Testing

@testable import PhotoVerification

/// The calibration set the shipped model was fitted on, as the repository keeps it: each photo's
/// features and labels in Models/bed-made-v2-features.csv (the photos are not ours to ship).
enum CalibrationSet {
    static let features = Repository.url("Models/bed-made-v2-features.csv")

    static func samples() throws -> [LabelledSample] {
        try CalibrationFeatures.samples(csv: String(contentsOf: features, encoding: .utf8), source: features.path)
    }
}

/// The real calibration photos under ../shared/calibration/rooms, where a machine has them (never
/// copied into the repository).
enum CalibrationPhotos {
    static let folder = Repository.shared("calibration/rooms")
    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("clean").path) }

    static func samples() throws -> [LabelledSample] { try CalibrationFeatures.measure(folder: folder.path) }
}

@Suite struct CalibrationSetTests {
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

    @Test func theFeaturesFileReadsBackAsItWasWritten() throws {
        let samples = try CalibrationSet.samples()
        let again = try CalibrationFeatures.samples(csv: CalibrationFeatures.csv(samples), source: "again")
        #expect(again.map(\.file) == samples.map(\.file))
        #expect(again.map(\.statistics) == samples.map(\.statistics))
        #expect(throws: MorningProofError.self) {
            try CalibrationFeatures.samples(csv: "file,made\nclean/0.png,1\n", source: "short.csv")
        }
    }
}

@Suite(.enabled(if: CalibrationPhotos.available, "skipped: no calibration photos at ../shared/calibration/rooms"))
struct CalibrationPhotoTests {
    /// The stored features are what the verifier's code measures on the photos today, exactly: a
    /// change to the features' code that changes them needs the features file and the model refitted.
    @Test func theStoredFeaturesAreThePhotosFeatures() throws {
        let measured = try CalibrationPhotos.samples()
        let stored = try CalibrationSet.samples()
        #expect(measured.map(\.file) == stored.map(\.file))
        #expect(measured.map(\.made) == stored.map(\.made))
        #expect(measured.map(\.bedVisible) == stored.map(\.bedVisible))
        for (a, b) in zip(measured, stored) { #expect(a.statistics == b.statistics, "\(a.file)") }
    }
}
