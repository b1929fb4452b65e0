import ArgumentParser
import Foundation
import MorningProofCore
import PhotoVerification

/// `morningproof image`: look at photo files the way the verifier sees them.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Inspect photo files (JPEG, PNG, HEIC and WebP) the way the verifier decodes them.",
        subcommands: [Info.self])

    /// `morningproof image info FILE...`: header facts and the mean colour of the decoded image.
    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Show each photo's format, size, orientation, colour space and mean colour.",
            discussion: """
                The format comes from the file's first bytes, never its name. The image is decoded at \
                full size and turned upright by its EXIF orientation; "mean" is the average of each RGB \
                channel (0 to 255) over every pixel.

                Exit codes: 0 when every file decoded, 65 when a file is damaged, truncated, not an image \
                or larger than --max-pixels, 66 when a file is missing. Every file is still reported; the \
                exit code is the worst one.

                Examples:
                  morningproof image info bed.jpg
                  morningproof image info SampleImages/*.jpg --json
                  morningproof image info huge-scan.png --max-pixels 200000000
                """)

        @Argument(help: ArgumentHelp("Photo files to inspect.", valueName: "file"))
        var files: [String]

        @Option(help: "Refuse images whose header claims more pixels than this, before decoding anything.")
        var maxPixels: Int = ImageDecoder.defaultMaxPixels

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating {
                if maxPixels < 1 { throw MorningProofError.usage("--max-pixels must be at least 1, not \(maxPixels)") }
            }
        }

        struct Report: Encodable {
            var file: String
            var info: ImageInfo?
            var mean: [Double]?
            var error: String?

            enum CodingKeys: String, CodingKey {
                case file, mean, error
            }

            func encode(to encoder: Encoder) throws {
                try info?.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(file, forKey: .file)
                try container.encodeIfPresent(mean, forKey: .mean)
                try container.encodeIfPresent(error, forKey: .error)
            }
        }

        func run() async throws {
            var worst: Int32 = 0
            var reports: [Report] = []
            for file in files {
                do {
                    let (info, means) = try ImageDecoder.channelMeans(path: file, maxPixels: maxPixels)
                    let report = Report(file: file, info: info, mean: means.map { ($0 * 100).rounded() / 100 })
                    if global.json { reports.append(report) } else { Console.out(Self.line(report)) }
                } catch {
                    guard let (message, code) = ExitStatus.of(error) else { throw error }
                    worst = max(worst, code)
                    Console.error("morningproof: \(message)")
                    reports.append(Report(file: file, error: message))
                }
            }
            if global.json { try Console.json(reports) }
            if worst != 0 { throw ExitCode(worst) }
        }

        static func line(_ report: Report) -> String {
            guard let info = report.info, let mean = report.mean else { return report.file }
            let layout =
                info.format == .jpeg
                ? (info.progressive ? "progressive" : "baseline")
                : (info.interlaced ? "interlaced" : "not interlaced")
            var parts = [
                "\(report.file): \(info.format.name) \(info.width)x\(info.height)",
                "orientation \(info.orientation) (displayed \(info.displayWidth)x\(info.displayHeight))",
                "\(info.colorSpace) \(info.bitDepth)-bit", layout,
                "mean RGB " + mean.map { String(format: "%.1f", $0) }.joined(separator: " "),
            ]
            if let time = info.captureTime {
                parts.append("captured \(time)" + (info.captureOffset.map { " \($0)" } ?? ""))
            }
            return parts.joined(separator: ", ")
        }
    }
}
