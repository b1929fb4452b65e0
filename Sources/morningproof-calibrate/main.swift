// morningproof-calibrate: fits the bed verifier with the same feature code `morningproof verify`
// uses, and writes the model JSON (which the build embeds in the program).
//
//   morningproof-calibrate FOLDER --features-csv FILE --model Models/bed-made-v2.json [fit options]
//   morningproof-calibrate --from-features FILE --model Models/bed-made-v2.json [fit options]
//   morningproof-calibrate --scenes FOLDER [--workers 2]   (the scene matcher: SceneMeasure.swift)
//   fit options: [--folds 5] [--repeats 10] [--l2 5] [--features a,b,c]
//
// FOLDER holds clean/ (made beds, tidy rooms) and messy/ (unmade, cluttered) photos and optionally
// bed_visible.csv (file,label,bed_visible with yes/maybe/no); `--features-csv` writes what was
// measured on them (`CalibrationFeatures`), and `--from-features` refits from such a file without the
// photos. The model records the features file as its data (the folder when none is written).
// `scripts/calibrate` is the usual way in.
import Foundation
import MorningProofCore
import PhotoVerification

struct Options {
    var folder = ""
    var featuresPath: String?
    var modelPath: String?
    var csvPath: String?
    var fitter = BedModelFitter()

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst() else { throw MorningProofError.usage("\(flag) needs a value") }
            return next
        }
        func number(_ flag: String) throws -> Double {
            let text = try value(flag)
            guard let n = Double(text) else { throw MorningProofError.usage("\(flag): not a number: \(text)") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--model": modelPath = try value(argument)
            case "--features-csv": csvPath = try value(argument)
            case "--from-features": featuresPath = try value(argument)
            case "--folds": fitter.folds = Int(try number(argument))
            case "--repeats": fitter.repeats = Int(try number(argument))
            case "--l2": fitter.l2Penalty = try number(argument)
            case "--features": fitter.features = try value(argument).split(separator: ",").map(String.init)
            case _ where argument.hasPrefix("-"): throw MorningProofError.usage("unknown option \(argument)")
            default: folder = argument
            }
        }
        guard folder.isEmpty != (featuresPath == nil) else {
            throw MorningProofError.usage(
                "give the labelled folder (clean/, messy/) or --from-features FILE: one of the two")
        }
        if let unknown = fitter.features.first(where: { !PixelStatistics.names.contains($0) }) {
            throw MorningProofError.usage(
                "unknown feature \(unknown); known: \(PixelStatistics.names.joined(separator: ","))")
        }
    }
}

/// The samples to fit on: measured on the folder's photos, or read from a features file.
func readSamples(_ options: Options) throws -> [LabelledSample] {
    guard let path = options.featuresPath else { return try CalibrationFeatures.measure(folder: options.folder) }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw MorningProofError.noInput("\(path): cannot read the features file")
    }
    return try CalibrationFeatures.samples(csv: text, source: path)
}

do {
    if CommandLine.arguments.dropFirst().first == "--scenes" {
        exit(try measureScenes(Array(CommandLine.arguments.dropFirst(2))))
    }
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let samples = try readSamples(options)
    let data = options.csvPath ?? options.featuresPath ?? options.folder
    guard samples.contains(where: \.made), samples.contains(where: { !$0.made }) else {
        throw MorningProofError.dataError("\(options.featuresPath ?? options.folder): need made and not-made photos")
    }
    if let csv = options.csvPath {
        try CalibrationFeatures.csv(samples).write(toFile: csv, atomically: true, encoding: .utf8)
    }
    let model = options.fitter.calibrate(samples, data: data)
    let json = try model.jsonText()
    if let path = options.modelPath { try json.write(toFile: path, atomically: true, encoding: .utf8) }
    let c = model.calibration
    print("calibrated on \(c.images) photos (\(c.made) made, \(c.notMade) not made), \(c.folds)-fold CV x \(c.repeats)")
    print(
        String(
            format: "cross-validated balanced accuracy: %.1f%% (made recall %.1f%%, not-made recall %.1f%%)",
            c.balancedAccuracy * 100, c.madeRecall * 100, c.notMadeRecall * 100))
    if let v = c.bedVisible {
        print(
            String(
                format: "bed-visible subset (%d: %d made, %d not made): %.1f%%", v.images, v.made, v.notMade,
                v.balancedAccuracy * 100))
    }
    print(String(format: "training balanced accuracy (optimistic): %.1f%%", c.trainingBalancedAccuracy * 100))
    for limit in model.photoLimits ?? [] {
        let bound = limit.atLeast.map { "at least \($0)" } ?? limit.atMost.map { "at most \($0)" } ?? ""
        print("photo limit: \(limit.statistic) \(bound) (most extreme calibration photo: \(limit.calibrationExtreme))")
    }
    print(
        String(
            format:
                "calibration photos refused as not a photo: %.1f held back (mean per repeat), %d by the final limits",
            c.heldBackNotAPhoto ?? 0, c.trainingNotAPhoto ?? 0))
    if options.modelPath == nil { print(json, terminator: "") }
} catch let error as MorningProofError {
    FileHandle.standardError.write(Data("morningproof-calibrate: \(error.message)\n".utf8))
    exit(error.kind.exitCode)
} catch {
    FileHandle.standardError.write(Data("morningproof-calibrate: \(error)\n".utf8))
    exit(74)
}
