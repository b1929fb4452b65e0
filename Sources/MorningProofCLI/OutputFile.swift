import Foundation
import MorningProofCore

/// Files a command writes (`export --out`, `report --png`): whole or not at all.
enum OutputFile {
    /// Writes `data` to `path` through a temporary file renamed into place; an error is an I/O error (74).
    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw MorningProofError.ioError("\(path): cannot write (\(error.localizedDescription))")
        }
    }

    /// `1.2 MB`, `340 kB`, `812 bytes`.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(bytes / 1_000) kB" }
        return "\(Double(bytes / 100_000) / 10) MB"
    }
}
