import CImageCodecs
import Foundation
import MorningProofCore

extension ImageDecoder {
    static let messageCapacity = Int(MPIMG_MESSAGE_CAPACITY)

    /// The file's bytes; a missing file is `.noSuchFile`, an unreadable one `.unreadable`.
    static func read(_ path: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw PhotoError(.noSuchFile, path: path, "\(name(of: path)): no such file")
        }
        if isDirectory.boolValue {
            throw PhotoError(.notAnImage, path: path, "\(name(of: path)): is a folder, not an image")
        }
        // An empty regular file is returned as is: Foundation's reader leaks a 4 KB buffer on one
        // (found with LeakSanitizer).
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if attributes?[.type] as? FileAttributeType == .typeRegular, (attributes?[.size] as? NSNumber)?.intValue == 0 {
            return Data()
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw PhotoError(
                .unreadable, path: path, "\(name(of: path)): cannot be read (\(error.localizedDescription))",
                cause: error.localizedDescription)
        }
    }

    /// The path as the person typed it, for messages.
    static func name(of path: String) -> String { path }

    static func sniff(_ data: Data, name: String) throws -> ImageFormat {
        if data.isEmpty {
            throw PhotoError(.notAnImage, path: name, "\(name): the file is empty (0 bytes), not an image")
        }
        guard let format = ImageFormat.sniff(data) else {
            throw PhotoError(.notAnImage, path: name, "\(name): \(ImageFormat.describeUnknown(data))")
        }
        return format
    }

    static func check(_ failure: PhotoError?) throws {
        if let failure { throw failure }
    }

    /// Runs one shim call with a message buffer and turns a failed status into an error a person can act on.
    static func call(
        name: String, format: ImageFormat, header: inout mpimg_info,
        _ body: (UnsafeMutablePointer<mpimg_info>, UnsafeMutablePointer<CChar>) -> Int32
    ) -> PhotoError? {
        var buffer = [CChar](repeating: 0, count: messageCapacity)
        let status = withUnsafeMutablePointer(to: &header) { info in
            buffer.withUnsafeMutableBufferPointer { body(info, $0.baseAddress!) }
        }
        guard UInt32(bitPattern: status) != MPIMG_OK.rawValue else { return nil }
        let libraryMessage = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let refused = [MPIMG_ERROR_TOO_MANY_PIXELS, MPIMG_ERROR_TOO_MANY_SCANS, MPIMG_ERROR_MEMORY]
            .contains { $0.rawValue == UInt32(bitPattern: status) }
        let tooManyPixels = UInt32(bitPattern: status) == MPIMG_ERROR_TOO_MANY_PIXELS.rawValue
        return PhotoError(
            tooManyPixels ? .tooManyPixels : refused ? .refused : .damaged, path: name,
            "\(name): " + explain(status: status, format: format, header: header, libraryMessage: libraryMessage),
            cause: libraryMessage)
    }

    static func explain(status: Int32, format: ImageFormat, header: mpimg_info, libraryMessage: String) -> String {
        let kind = format.name
        let library = format.library
        switch UInt32(bitPattern: status) {
        case MPIMG_ERROR_TOO_MANY_PIXELS.rawValue where !libraryMessage.hasPrefix("\(header.width)x\(header.height) is"):
            // A HEIC's coded picture (its HEVC stream's own size) over the limit, whatever its header says.
            let said = libraryMessage.hasPrefix("the ") ? libraryMessage.dropFirst(4) : Substring(libraryMessage)
            return "the \(kind) \(said); refused before decoding"
        case MPIMG_ERROR_TOO_MANY_PIXELS.rawValue:
            let pixels = UInt64(header.width) * UInt64(header.height)
            return
                "the \(kind) header claims \(header.width)x\(header.height) (\(pixels) pixels), over the limit of "
                + "\(libraryMessage.split(separator: " ").last ?? "?") pixels; refused before decoding"
        case MPIMG_ERROR_TOO_MANY_SCANS.rawValue:
            return "progressive JPEG with \(libraryMessage); refused as broken or hostile"
        case MPIMG_ERROR_MEMORY.rawValue:
            return "out of memory decoding the \(kind) (\(library): \(libraryMessage))"
        default:
            break
        }
        if libraryMessage.hasPrefix("the header says") || libraryMessage.hasPrefix("the coded picture is") {
            return "the \(kind) is not what its header says: \(libraryMessage); refused before decoding"
        }
        let lower = libraryMessage.lowercased()
        if lower.contains("premature end") || lower.contains("beyond end of data") || lower.contains("ends early")
            || lower.contains("not enough image data") || lower.contains("ends inside") || lower.contains("ends before")
        {
            return "\(kind) data ends early: the file is truncated (\(library): \(libraryMessage))"
        }
        if lower.contains("crc") {
            return "\(kind) file is damaged: a checksum does not match (\(library): \(libraryMessage))"
        }
        return "\(kind) data is corrupt (\(library): \(libraryMessage))"
    }

    static func makeInfo(_ format: ImageFormat, _ header: mpimg_info, exif: ExifMetadata) -> ImageInfo {
        ImageInfo(
            format: format, width: Int(header.width), height: Int(header.height), orientation: exif.orientation ?? 1,
            colorSpace: colorSpaceName(header.color), bitDepth: Int(header.bit_depth),
            progressive: header.progressive != 0, interlaced: header.interlaced != 0,
            captureTime: exif.dateTimeOriginal, captureOffset: exif.offsetTimeOriginal)
    }

    static func colorSpaceName(_ color: Int32) -> String {
        switch UInt32(bitPattern: color) {
        case MPIMG_COLOR_GRAY.rawValue: return "Gray"
        case MPIMG_COLOR_GRAY_ALPHA.rawValue: return "Gray+Alpha"
        case MPIMG_COLOR_RGB.rawValue: return "RGB"
        case MPIMG_COLOR_RGB_ALPHA.rawValue: return "RGBA"
        case MPIMG_COLOR_PALETTE.rawValue: return "Palette"
        case MPIMG_COLOR_YCBCR.rawValue: return "YCbCr"
        case MPIMG_COLOR_CMYK.rawValue: return "CMYK"
        case MPIMG_COLOR_YCCK.rawValue: return "YCCK"
        default: return "unknown"
        }
    }
}
