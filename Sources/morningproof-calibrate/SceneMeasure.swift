// `morningproof-calibrate --scenes FOLDER [--rooms N] [--workers N]`: measures the scene matcher (reference
// photos) on a folder of room photos, one room per photo, and prints the false refusals and false
// acceptances (`SceneCalibration`). `scripts/calibrate-scenes` is the usual way in.
import Foundation
import MorningProofCore
import PhotoVerification

/// Runs the scene measurement on `arguments` (after `--scenes`); returns the exit code.
func measureScenes(_ arguments: [String]) throws -> Int32 {
    var folder: String?
    var workers = 2
    var limit = Int.max
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--rooms":
            guard let text = rest.popFirst(), let n = Int(text), n > 1 else {
                throw MorningProofError.usage("--rooms needs a number above 1")
            }
            limit = n
        case "--workers":
            guard let text = rest.popFirst(), let n = Int(text), n > 0 else {
                throw MorningProofError.usage("--workers needs a positive number")
            }
            workers = n
        case _ where argument.hasPrefix("-"): throw MorningProofError.usage("unknown option \(argument)")
        default: folder = argument
        }
    }
    guard let folder else { throw MorningProofError.usage("--scenes needs a folder of room photos") }
    let photos = Array(try roomPhotos(in: folder).prefix(limit))
    guard photos.count >= 2 else {
        throw MorningProofError.noInput("\(folder): need photos of at least two rooms (.png, .jpg)")
    }
    let rasters = try photos.map {
        try ImageDecoder.decode(path: $0, workingLongSide: BedVerifier.workingLongSide).raster
    }
    let started = Date()
    let rates = SceneCalibration(workers: workers).measure(rasters)
    print(rates.report)
    print(String(format: "measured in %.1f s on %d threads", Date().timeIntervalSince(started), workers))
    return 0
}

/// The photos under `folder` (any depth), in a stable order.
func roomPhotos(in folder: String) throws -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: folder) else {
        throw MorningProofError.noInput("\(folder): no such folder")
    }
    let extensions: Set<String> = ["png", "jpg", "jpeg"]
    var paths: [String] = []
    while let next = walker.nextObject() as? String {
        if extensions.contains((next as NSString).pathExtension.lowercased()) { paths.append(folder + "/" + next) }
    }
    return paths.sorted()
}
