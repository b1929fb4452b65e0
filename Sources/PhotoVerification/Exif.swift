/// The few EXIF fields MorningProof uses, read from the TIFF data of a JPEG's APP1 "Exif" segment.
public struct ExifMetadata: Sendable, Equatable {
    /// Orientation (tag 0x0112), 1 to 8, or nil when absent or out of range.
    public var orientation: Int?
    /// DateTimeOriginal (tag 0x9003) as written, e.g. "2026:11:18 07:12:05".
    public var dateTimeOriginal: String?
    /// OffsetTimeOriginal (tag 0x9011) as written, e.g. "+01:00".
    public var offsetTimeOriginal: String?

    public init(orientation: Int? = nil, dateTimeOriginal: String? = nil, offsetTimeOriginal: String? = nil) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
    }

    /// Parses TIFF data (starting at "II*\0" or "MM\0*"). Damaged or missing fields are left nil:
    /// EXIF is advisory, so a bad EXIF block never makes a photo unreadable.
    public init(tiff: [UInt8]) {
        self.init()
        guard let reader = TIFFReader(tiff) else { return }
        guard let ifd0 = reader.uint32(at: 4) else { return }
        var exifIFD: Int?
        reader.forEachEntry(inIFDAt: Int(ifd0)) { tag, type, count, valueOffset in
            switch tag {
            case 0x0112 where type == 3 && count >= 1:
                if let value = reader.uint16(at: valueOffset), (1...8).contains(value) { orientation = Int(value) }
            case 0x8769 where count == 1:
                exifIFD = reader.uint32(at: valueOffset).map(Int.init)
            default: break
            }
        }
        guard let exifIFD else { return }
        reader.forEachEntry(inIFDAt: exifIFD) { tag, type, count, valueOffset in
            guard type == 2 else { return }
            switch tag {
            case 0x9003: dateTimeOriginal = reader.ascii(count: count, valueOffset: valueOffset)
            case 0x9011: offsetTimeOriginal = reader.ascii(count: count, valueOffset: valueOffset)
            default: break
            }
        }
    }
}

/// Bounds-checked reads over TIFF bytes in either byte order.
private struct TIFFReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x49, bytes[1] == 0x49, bytes[2] == 42, bytes[3] == 0 {
            bigEndian = false
        } else if bytes[0] == 0x4D, bytes[1] == 0x4D, bytes[2] == 0, bytes[3] == 42 {
            bigEndian = true
        } else {
            return nil
        }
        self.bytes = bytes
    }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset + 1])
        return bigEndian ? (a << 8 | b) : (b << 8 | a)
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? (UInt32(first) << 16 | UInt32(second)) : (UInt32(second) << 16 | UInt32(first))
    }

    /// Calls `body(tag, type, count, offsetOfValue)` for each entry of the IFD at `offset`;
    /// values of 4 bytes or less sit in the entry itself, longer ones at the offset it holds.
    func forEachEntry(inIFDAt offset: Int, _ body: (UInt16, UInt16, Int, Int) -> Void) {
        guard let count = uint16(at: offset), count <= 1000 else { return }
        for index in 0..<Int(count) {
            let entry = offset + 2 + index * 12
            guard let tag = uint16(at: entry), let type = uint16(at: entry + 2),
                let valueCount = uint32(at: entry + 4), valueCount <= 65536
            else { return }
            let unit: Int
            switch type {
            case 1, 2, 6, 7: unit = 1
            case 3, 8: unit = 2
            case 4, 9, 11: unit = 4
            default: unit = 8
            }
            let size = unit * Int(valueCount)
            let valueOffset: Int
            if size <= 4 {
                valueOffset = entry + 8
            } else {
                guard let pointer = uint32(at: entry + 8) else { return }
                valueOffset = Int(pointer)
            }
            body(tag, type, Int(valueCount), valueOffset)
        }
    }

    /// An ASCII value without its trailing NULs, or nil when it runs past the data or is not text.
    func ascii(count: Int, valueOffset: Int) -> String? {
        guard count > 0, valueOffset >= 0, valueOffset + count <= bytes.count else { return nil }
        var text = Array(bytes[valueOffset..<(valueOffset + count)])
        while let last = text.last, last == 0 || last == 0x20 { text.removeLast() }
        guard !text.isEmpty, text.allSatisfy({ (32..<127).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}
