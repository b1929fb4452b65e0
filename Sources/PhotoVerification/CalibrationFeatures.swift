import Foundation
import MorningProofCore

/// A calibration set as numbers: one CSV row a photo, with its file name, its label (`made`), whether
/// a bed is prominent in it (`bedVisible`) and every feature of `PixelStatistics.names`.
/// The repository keeps the set the shipped model was fitted on this way
/// (`Models/bed-made-v2-features.csv`) rather than the photos, which are not ours to ship, so that a
/// refit and the calibration tests run from a clone; a refit from it gives the model the photos give.
public enum CalibrationFeatures {
    /// The CSV text of `samples`, in their order (the folds' shuffles depend on it). Each value is
    /// written in Swift's shortest exact form, so that reading it back gives the same `Double`.
    public static func csv(_ samples: [LabelledSample]) -> String {
        var lines = [(["file", "made", "bedVisible"] + PixelStatistics.names).joined(separator: ",")]
        for sample in samples {
            let values = PixelStatistics.names.map { "\(sample.statistics[$0])" }
            lines.append(
                ([sample.file, sample.made ? "1" : "0", sample.bedVisible ? "1" : "0"] + values).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The samples of a CSV text that `csv` wrote (its columns in any order); `source` names it in errors.
    public static func samples(csv text: String, source: String) throws -> [LabelledSample] {
        let rows = text.split(whereSeparator: \.isNewline).map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        guard let header = rows.first?.map(String.init) else { throw MorningProofError.dataError("\(source): empty") }
        let columns = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let needed = ["file", "made", "bedVisible"] + PixelStatistics.names
        if let missing = needed.first(where: { columns[$0] == nil }) {
            throw MorningProofError.dataError("\(source): no column \(missing)")
        }
        return try rows.dropFirst().enumerated().map { index, cells in
            let line = index + 2
            guard cells.count == header.count else {
                throw MorningProofError.dataError(
                    "\(source):\(line): \(cells.count) cells, the header has \(header.count)")
            }
            func cell(_ name: String) -> String { columns[name].map { String(cells[$0]) } ?? "" }
            var values: [String: Double] = [:]
            for name in PixelStatistics.names {
                guard let value = Double(cell(name)), value.isFinite else {
                    throw MorningProofError.dataError("\(source):\(line): \(name) is not a number: \(cell(name))")
                }
                values[name] = value
            }
            return LabelledSample(
                file: cell("file"), made: cell("made") == "1", bedVisible: cell("bedVisible") == "1",
                statistics: PixelStatistics(values: values))
        }
    }
    /// Measures every photo of a labelled folder: `clean/` (made) and `messy/` (not made), each in
    /// the order of its names, with `bed_visible.csv`'s "yes" rows as `bedVisible`.
    public static func measure(folder: String) throws -> [LabelledSample] {
        let visible = Set(visibility(folder).filter { $0.value == "yes" }.keys)
        var samples: [LabelledSample] = []
        for (directory, made) in [("clean", true), ("messy", false)] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + directory)
                .filter { !$0.hasPrefix(".") }
                .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            for name in names {
                let file = directory + "/" + name
                let image = try ImageDecoder.decode(
                    path: folder + "/" + file, workingLongSide: BedVerifier.workingLongSide)
                samples.append(
                    LabelledSample(
                        file: file, made: made, bedVisible: visible.contains(file),
                        statistics: PixelStatistics(image.raster)))
            }
        }
        return samples
    }

    /// bed_visible.csv (file,label,bed_visible) as file -> yes/maybe/no; empty without one.
    static func visibility(_ folder: String) -> [String: String] {
        guard let text = try? String(contentsOfFile: folder + "/bed_visible.csv", encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let cells = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count >= 3 { result[cells[0]] = cells[2] }
        }
        return result
    }
}
