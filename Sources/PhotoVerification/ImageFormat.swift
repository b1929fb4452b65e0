import Foundation

/// An image file format MorningProof decodes, recognised from the file's first bytes.
public enum ImageFormat: String, Sendable, Codable {
    case jpeg
    case png
    /// HEIF with HEVC pictures: an iPhone's own format (`.heic`), decoded through libheif.
    case heic
    /// WebP, lossy or lossless, as Android phones and browsers save it; decoded through libwebp.
    case webp

    /// The HEIF brands (the `ftyp` box's major brand) read as HEIC: HEVC images and the generic image brands.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// The format whose signature `bytes` start with, or nil. The file name never counts.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        guard head.count == 12 else { return nil }
        if head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        if head[4..<8].elementsEqual("ftyp".utf8), heifBrands.contains(String(decoding: head[8..<12], as: UTF8.self)) {
            return .heic
        }
        return nil
    }

    /// The format's name in messages: "JPEG", "PNG", "HEIC", "WebP".
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .heic: "HEIC"
        case .webp: "WebP"
        }
    }

    /// The library that decodes it, named in messages that quote it.
    var library: String {
        switch self {
        case .jpeg: "libjpeg"
        case .png: "libpng"
        case .heic: "libheif"
        case .webp: "libwebp"
        }
    }

    /// The formats decoded, in words: "JPEG, PNG, HEIC or WebP".
    static let known = "JPEG, PNG, HEIC or WebP"

    /// A short description of bytes that are not an image we know, for error messages.
    static func describeUnknown<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(64))
        let printable = head.allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) }
        if printable { return "it is plain text, not a \(known) image" }
        let hex = head.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "not a \(known) image (it starts with bytes \(hex))"
    }
}
