import Foundation

/// A large PNG of one flat colour, written without a PNG library: its pixel rows are runs of
/// zeros (the first row filtered Sub, the others Up), which deflate's fixed Huffman codes store as
/// matches of 258 bytes, so a 49-megapixel picture takes about a megabyte.
enum FlatPNG {
    static func make(width: Int, height: Int, gray: UInt8 = 128) -> Data {
        var deflate = BitWriter()
        deflate.write(1, count: 1)  // the final block
        deflate.write(1, count: 2)  // fixed Huffman codes
        var adler = Adler32()
        let rowBytes = 3 * width
        // Row 0, Sub: the first pixel, then differences of zero.
        for byte in [1, gray, gray, gray] as [UInt8] {
            deflate.literal(byte)
            adler.add(byte)
        }
        deflate.literal(0)
        deflate.zeros(following: rowBytes - 4)
        adler.add(0)
        adler.addZeros(rowBytes - 4)
        // The other rows, Up: all zeros.
        for _ in 1..<height {
            deflate.literal(2)
            deflate.literal(0)
            deflate.zeros(following: rowBytes - 1)
            adler.add(2)
            adler.addZeros(rowBytes)
        }
        deflate.huffman(0, length: 7)  // end of block
        var zlib = Data([0x78, 0x01])
        zlib += deflate.finished()
        zlib += bigEndian(adler.value)

        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + Data([8, 2, 0, 0, 0]))
        png += chunk("IDAT", zlib)
        png += chunk("IEND", Data())
        return png
    }

    private static func chunk(_ type: String, _ data: Data) -> Data {
        let body = Data(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    private static func crc32(_ data: Data) -> UInt32 {
        ~data.reduce(UInt32.max) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }
}

/// Deflate's bit stream: values least significant bit first, Huffman codes most significant first.
private struct BitWriter {
    var bytes: [UInt8] = []
    var current: UInt32 = 0
    var used = 0

    mutating func write(_ value: UInt32, count: Int) {
        for bit in 0..<count {
            current |= ((value >> UInt32(bit)) & 1) << UInt32(used)
            used += 1
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }
    }

    mutating func huffman(_ code: UInt32, length: Int) {
        for bit in stride(from: length - 1, through: 0, by: -1) { write((code >> UInt32(bit)) & 1, count: 1) }
    }

    /// A byte below 144, in the fixed code.
    mutating func literal(_ byte: UInt8) { huffman(0x30 + UInt32(byte), length: 8) }

    /// `count` zeros after a zero: matches at distance 1.
    mutating func zeros(following count: Int) {
        var left = count
        while left > 0 {
            let take = left >= 261 || left == 258 ? 258 : left > 13 ? 10 : left > 10 ? left - 3 : left
            if take < 3 {
                for _ in 0..<take { literal(0) }
            } else if take == 258 {
                huffman(0xC5, length: 8)  // symbol 285
                huffman(0, length: 5)  // distance 1
            } else {
                huffman(UInt32(take - 2), length: 7)  // symbols 257...264: lengths 3...10
                huffman(0, length: 5)
            }
            left -= take
        }
    }

    mutating func finished() -> Data {
        if used > 0 { bytes.append(UInt8(current)) }
        return Data(bytes)
    }
}

private struct Adler32 {
    var a = 1
    var b = 0

    mutating func add(_ byte: UInt8) {
        a = (a + Int(byte)) % 65_521
        b = (b + a) % 65_521
    }

    mutating func addZeros(_ count: Int) { b = (b + count % 65_521 * a) % 65_521 }

    var value: UInt32 { UInt32(b << 16 | a) }
}
