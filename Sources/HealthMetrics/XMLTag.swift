import Foundation

/// The attributes of one XML start tag, read straight from the bytes between `<` and `>`.
/// Apple Health exports are machine-written: attributes are `name="value"` with `"` or `'` quotes,
/// and a value never holds `<` (the writer escapes it), so no DTD or entity table is needed.
struct XMLTag {
    let base: UnsafePointer<UInt8>
    /// Offset of the first byte after the tag name.
    let start: Int
    /// Offset of the closing `>`.
    let end: Int

    /// Calls `body(nameStart, nameLength, valueStart, valueLength)` for each attribute in order;
    /// stops early when `body` returns false. Returns false when the tag is malformed.
    @inline(__always)
    func forEachAttribute(_ body: (Int, Int, Int, Int) -> Bool) -> Bool {
        var i = start
        while true {
            while i < end, isSpace(base[i]) { i += 1 }
            if i >= end || base[i] == 0x2F || base[i] == 0x3F { return true }  // '/' or '?'
            let nameStart = i
            while i < end, base[i] != 0x3D, !isSpace(base[i]) { i += 1 }
            let nameLength = i - nameStart
            while i < end, isSpace(base[i]) { i += 1 }
            guard i < end, base[i] == 0x3D else { return false }
            i += 1
            while i < end, isSpace(base[i]) { i += 1 }
            guard i < end, base[i] == 0x22 || base[i] == 0x27 else { return false }
            let quote = base[i]
            i += 1
            let valueStart = i
            guard let close = memchr(base + i, Int32(quote), end - i) else { return false }
            let valueEnd = UnsafeRawPointer(close) - UnsafeRawPointer(base)
            i = valueEnd + 1
            if !body(nameStart, nameLength, valueStart, valueEnd - valueStart) { return true }
        }
    }

    @inline(__always)
    func equals(_ offset: Int, _ length: Int, _ literal: StaticString) -> Bool {
        length == literal.utf8CodeUnitCount && memcmp(base + offset, literal.utf8Start, length) == 0
    }

    @inline(__always)
    func hasPrefix(_ offset: Int, _ length: Int, _ literal: StaticString) -> Bool {
        length >= literal.utf8CodeUnitCount && memcmp(base + offset, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }

    func bytes(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: length)
    }

    /// The attribute value as text, with the five XML entities and character references decoded.
    func string(_ offset: Int, _ length: Int) -> String {
        XMLText.decode(bytes(offset, length))
    }

    /// A decimal number (`1234`, `0.5`, `1.2e-05`); nil when the value is not one.
    func number(_ offset: Int, _ length: Int) -> Double? {
        XMLText.number(bytes(offset, length))
    }
}

@inline(__always)
func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

enum XMLText {
    /// Decodes `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` and `&#NNN;` / `&#xHH;` in UTF-8 bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.contains(0x26) else { return String(decoding: bytes, as: UTF8.self) }
        let text = String(decoding: bytes, as: UTF8.self)
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let name = rest[rest.index(after: amp)..<semi]
            var replacement: String?
            switch name {
            case "amp": replacement = "&"
            case "lt": replacement = "<"
            case "gt": replacement = ">"
            case "quot": replacement = "\""
            case "apos": replacement = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                }
            }
            if let replacement {
                result += replacement
                rest = rest[rest.index(after: semi)...]
            } else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return result + rest
    }

    /// Parses a plain decimal by hand (the common case), else through strtod.
    static func number(_ b: UnsafeRawBufferPointer) -> Double? {
        let n = b.count
        guard n > 0 else { return nil }
        var i = 0
        var negative = false
        if b[0] == 0x2D {
            negative = true
            i = 1
        }
        var whole: UInt64 = 0
        var digits = 0
        while i < n, b[i] &- 48 < 10, digits < 18 {
            whole = whole &* 10 &+ UInt64(b[i] &- 48)
            i += 1
            digits += 1
        }
        var value = Double(whole)
        if i < n, b[i] == 0x2E {
            i += 1
            var fraction: UInt64 = 0
            var scale = 1.0
            var fractionDigits = 0
            while i < n, b[i] &- 48 < 10, fractionDigits < 17 {
                fraction = fraction &* 10 &+ UInt64(b[i] &- 48)
                scale *= 10
                i += 1
                fractionDigits += 1
                digits += 1
            }
            value += Double(fraction) / scale
        }
        if i == n, digits > 0 { return negative ? -value : value }
        // Exponents, very long numbers: the C library.
        var buffer = [CChar](repeating: 0, count: n + 1)
        for k in 0..<n { buffer[k] = CChar(bitPattern: b[k]) }
        var endPointer: UnsafeMutablePointer<CChar>?
        let parsed = buffer.withUnsafeMutableBufferPointer { pointer -> Double? in
            let result = strtod(pointer.baseAddress!, &endPointer)
            return endPointer == pointer.baseAddress! + n ? result : nil
        }
        return parsed.flatMap { $0.isFinite ? $0 : nil }
    }
}
