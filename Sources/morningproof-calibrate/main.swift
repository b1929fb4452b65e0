// morningproof-calibrate: fits the bed verifier on a labelled folder with the same feature code
// `morningproof verify` uses, and writes the model JSON (which the build embeds in the program).
//
//   morningproof-calibrate FOLDER --model Models/bed-made-v2.json
//                          [--features-csv FILE] [--folds 5] [--repeats 10] [--l2 5] [--features a,b,c]
//
// FOLDER holds clean/ (made beds, tidy rooms) and messy/ (unmade, cluttered) photos and optionally
// bed_visible.csv (file,label,bed_visible with yes/maybe/no). `scripts/calibrate` is the usual way in.
import Foundation
import MorningProofCore
import PhotoVerification

struct Options {
    var folder = ""
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
            case "--folds": fitter.folds = Int(try number(argument))
            case "--repeats": fitter.repeats = Int(try number(argument))
            case "--l2": fitter.l2Penalty = try number(argument)
            case "--features": fitter.features = try value(argument).split(separator: ",").map(String.init)
            case _ where argument.hasPrefix("-"): throw MorningProofError.usage("unknown option \(argument)")
            default: folder = argument
            }
        }
        guard !folder.isEmpty else { throw MorningProofError.usage("give the labelled folder (clean/, messy/)") }
        if let unknown = fitter.features.first(where: { !PixelStatistics.names.contains($0) }) {
            throw MorningProofError.usage(
                "unknown feature \(unknown); known: \(PixelStatistics.names.joined(separator: ","))")
        }
    }
}

/// bed_visible.csv as file -> yes/maybe/no.
func readVisibility(_ folder: String) -> [String: String] {
    guard let text = try? String(contentsOfFile: folder + "/bed_visible.csv", encoding: .utf8) else { return [:] }
    var result: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline).dropFirst() {
        let cells = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if cells.count >= 3 { result[cells[0]] = cells[2] }
    }
    return result
}

func loadSamples(_ folder: String) throws -> ([LabelledSample], [String: String]) {
    let visibility = readVisibility(folder)
    var samples: [LabelledSample] = []
    for (directory, made) in [("clean", true), ("messy", false)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + directory)
            .filter { !$0.hasPrefix(".") }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        for name in names {
            let relative = directory + "/" + name
            let image = try ImageDecoder.decode(
                path: folder + "/" + relative, workingLongSide: BedVerifier.workingLongSide)
            samples.append(
                LabelledSample(
                    file: relative, made: made, bedVisible: visibility[relative] == "yes",
                    statistics: PixelStatistics(image.raster)))
        }
    }
    return (samples, visibility)
}

func featuresCSV(_ samples: [LabelledSample], _ visibility: [String: String]) -> String {
    var lines = [(["file", "made", "bedVisible"] + PixelStatistics.names).joined(separator: ",")]
    for sample in samples {
        let values = PixelStatistics.names.map { String(format: "%.6f", sample.statistics[$0]) }
        lines.append(
            ([sample.file, sample.made ? "1" : "0", visibility[sample.file] ?? ""] + values).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let (samples, visibility) = try loadSamples(options.folder)
    guard samples.contains(where: \.made), samples.contains(where: { !$0.made }) else {
        throw MorningProofError.dataError("\(options.folder): need photos in both clean/ and messy/")
    }
    if let csv = options.csvPath {
        try featuresCSV(samples, visibility).write(toFile: csv, atomically: true, encoding: .utf8)
    }
    let model = options.fitter.calibrate(samples, data: options.folder)
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
    switch error.kind {  // sysexits
    case .negative: exit(1)
    case .usage: exit(64)
    case .dataError: exit(65)
    case .noInput: exit(66)
    case .ioError: exit(74)
    case .busy: exit(75)
    case .unauthorized, .notFound, .conflict, .refused, .tooManyRequests: exit(64)  // a server's refusals
    }
} catch {
    FileHandle.standardError.write(Data("morningproof-calibrate: \(error)\n".utf8))
    exit(74)
}
