import ArgumentParser
import Foundation

/// A size as `serve`'s limits take it: bytes (`1048576`), or a whole number with KB, MB or GB
/// (binary: 1 MB = 1,048,576 bytes), any case, a space allowed before the unit.
enum ByteSize {
    static let units: [(suffix: String, bytes: Int)] = [("KB", 1 << 10), ("MB", 1 << 20), ("GB", 1 << 30), ("B", 1)]

    /// The bytes `text` says: a usage error naming `option` for anything else, for 0, or past 64 GB.
    static func parse(_ text: String, option: String) throws -> Int {
        let upper = text.uppercased()
        let unit = units.first { upper.hasSuffix($0.suffix) } ?? ("", 1)
        let digits = upper.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0,
            number <= (64 << 30) / unit.bytes
        else {
            throw ValidationError(
                "\(option) must be a size such as 50MB, 512MB, 1GB or a number of bytes (up to 64GB), not \"\(text)\"")
        }
        return number * unit.bytes
    }
}
