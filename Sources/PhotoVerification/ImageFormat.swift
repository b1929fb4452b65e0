import Foundation

/// An image file format MorningProof decodes, recognised from the file's first bytes.
public enum ImageFormat: String, Sendable, Codable {
    case jpeg
    case png

    /// The format whose signature `bytes` start with, or nil. The file name never counts.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(8))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }

    /// A short description of bytes that are not an image we know, for error messages.
    static func describeUnknown<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(64))
        let printable = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
        if printable { return "it is plain text, not a JPEG or PNG image" }
        let hex = head.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "not a JPEG or PNG image (it starts with bytes \(hex))"
    }
}
