import Foundation

/// JSON read a chunk at a time, for a payload too large to decode whole (a 49 MB Health Auto
/// Export file decoded at once took 9.7 times its size): the caller walks the objects and arrays
/// it cares about, skips the rest, and takes the bytes of each value it wants to decode with
/// `JSONDecoder`. Every byte passed is checked as a JSON parser checks it (strings and their
/// escapes, numbers, literals, nesting no deeper than `maxDepth`); memory is one chunk plus the
/// value being taken, which may be at most its `limit`.
struct JSONChunkReader {
    /// The input is no JSON, or ends too soon: `reason` says where and what.
    struct Broken: Error {
        var reason: String
    }

    /// As deep as arrays and objects may nest (JSONDecoder's own limit).
    static let maxDepth = 512
    /// Bytes read from the input at a time.
    static let chunkSize = 1 << 20

    private let nextChunk: () throws -> Data?
    private var buffer: [UInt8] = []
    private var position = 0
    /// Bytes dropped from the front of `buffer`, so that messages give offsets in the whole input.
    private var dropped = 0
    private var depth = 0
    /// The start in `buffer` of the value being taken, and its limit; nil when none is.
    private var taking: (start: Int, limit: Int)?
    private var tookTooMuch = false

    /// Reads the chunks `nextChunk` gives until it gives nil or an empty chunk.
    init(chunks nextChunk: @escaping () throws -> Data?) { self.nextChunk = nextChunk }

    /// Reads `data` in slices of `chunkSize` bytes.
    init(data: Data, chunkSize: Int = Self.chunkSize) {
        var offset = data.startIndex
        self.init {
            guard offset < data.endIndex else { return nil }
            let end = data.index(offset, offsetBy: chunkSize, limitedBy: data.endIndex) ?? data.endIndex
            defer { offset = end }
            return data[offset..<end]
        }
    }

    // MARK: Walking

    /// The next byte that is not white space, not consumed; nil at the end of the input.
    mutating func peek() throws -> UInt8? {
        while true {
            guard try available() else { return nil }
            switch buffer[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return buffer[position]
            }
        }
    }

    /// Consumes the `{` of an object the caller walks with `nextKey`.
    mutating func enterObject() throws { try enter(UInt8(ascii: "{")) }

    /// Consumes the `[` of an array the caller walks with `nextElement`.
    mutating func enterArray() throws { try enter(UInt8(ascii: "[")) }

    /// The next key of the object entered (its colon consumed, so that its value comes next), or
    /// nil at the object's end (consumed). A key longer than 256 bytes is given as "".
    mutating func nextKey(first: Bool) throws -> String? {
        if try close(UInt8(ascii: "}"), first: first) { return nil }
        guard let bytes = try take(limit: 256, expecting: UInt8(ascii: "\"")) else {
            try expect(UInt8(ascii: ":"))
            return ""
        }
        try expect(UInt8(ascii: ":"))
        if !bytes.contains(UInt8(ascii: "\\")) { return String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self) }
        return
            (try? JSONDecoder().decode([String].self, from: Data([UInt8(ascii: "[")] + bytes + [UInt8(ascii: "]")])))?
            .first ?? ""
    }

    /// True when the array entered has another element (its value comes next); false at the
    /// array's end (consumed).
    mutating func nextElement(first: Bool) throws -> Bool { try !close(UInt8(ascii: "]"), first: first) }

    /// The bytes of the next value, checked; nil when it is longer than `limit` (it is skipped then).
    mutating func take(limit: Int) throws -> [UInt8]? { try take(limit: limit, expecting: nil) }

    /// Passes over the next value, checking it.
    mutating func skipValue() throws {
        let base = depth
        value: while true {
            guard let byte = try peek() else { throw cutShort }
            switch byte {
            case UInt8(ascii: "{"):
                try enter(byte)
                if try peek() != UInt8(ascii: "}") {
                    try skipKey()
                    continue value
                }
            case UInt8(ascii: "["):
                try enter(byte)
                if try peek() != UInt8(ascii: "]") { continue value }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
            default: throw unexpected(byte, "a value")
            }
            // After a value (or an empty container's opening): commas and closings, up to `base`.
            while depth > base {
                guard let next = try peek() else { throw cutShort }
                if next == UInt8(ascii: ",") {
                    position += 1
                    if closing.last == UInt8(ascii: "}") { try skipKey() }
                    continue value
                }
                guard next == closing.last else { throw unexpected(next, "',' or \(Self.quoted(closing.last ?? 0))") }
                position += 1
                leave()
            }
            return
        }
    }

    /// Checks that nothing but white space follows the value read.
    mutating func finish() throws {
        if let byte = try peek() { throw unexpected(byte, "the end after the JSON value") }
    }

    // MARK: Parts

    /// The closing byte of each container entered, innermost last.
    private var closing: [UInt8] = []

    private mutating func enter(_ opening: UInt8) throws {
        guard let byte = try peek() else { throw cutShort }
        guard byte == opening else { throw unexpected(byte, "\(Self.quoted(opening))") }
        guard depth < Self.maxDepth else {
            throw Broken(reason: "arrays and objects nested deeper than \(Self.maxDepth) at byte \(offset)")
        }
        position += 1
        depth += 1
        closing.append(opening == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    private mutating func leave() {
        depth -= 1
        closing.removeLast()
    }

    /// True at the container's end `closer` (consumed); else consumes the comma before an element
    /// that is not the first.
    private mutating func close(_ closer: UInt8, first: Bool) throws -> Bool {
        guard let byte = try peek() else { throw cutShort }
        if byte == closer {
            position += 1
            leave()
            return true
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw unexpected(byte, "',' or \(Self.quoted(closer))") }
            position += 1
        }
        return false
    }

    private mutating func take(limit: Int, expecting: UInt8?) throws -> [UInt8]? {
        guard let byte = try peek() else { throw cutShort }
        if let expecting, byte != expecting { throw unexpected(byte, "\(Self.quoted(expecting))") }
        taking = (position, limit)
        tookTooMuch = false
        defer { taking = nil }
        try skipValue()
        guard !tookTooMuch, let start = taking?.start, position - start <= limit else { return nil }
        return Array(buffer[start..<position])
    }

    private mutating func skipKey() throws {
        guard let byte = try peek() else { throw cutShort }
        guard byte == UInt8(ascii: "\"") else { throw unexpected(byte, "a key in quotes") }
        try skipString()
        try expect(UInt8(ascii: ":"))
    }

    private mutating func expect(_ wanted: UInt8) throws {
        guard let byte = try peek() else { throw cutShort }
        guard byte == wanted else { throw unexpected(byte, "\(Self.quoted(wanted))") }
        position += 1
    }

    /// The next byte, consumed, white space included.
    private mutating func nextByte() throws -> UInt8 {
        guard try available() else { throw cutShort }
        defer { position += 1 }
        return buffer[position]
    }

    private mutating func skipString() throws {
        position += 1  // the opening quote
        while true {
            let byte = try nextByte()
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                let escaped = try nextByte()
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        guard try nextByte().isHexDigit else {
                            throw Broken(reason: "a \\u escape without 4 hex digits at byte \(offset - 1)")
                        }
                    }
                } else if !Array(#""\/bfnrt"#.utf8).contains(escaped) {
                    throw unexpected(escaped, "an escape (one of \"\\/bfnrtu)", at: offset - 1)
                }
            case 0..<0x20: throw Broken(reason: "a control character in a string at byte \(offset - 1)")
            default: continue
            }
        }
    }

    private mutating func literal(_ word: String) throws {
        for expected in word.utf8 {
            let byte = try nextByte()
            guard byte == expected else { throw unexpected(byte, "'\(word)'", at: offset - 1) }
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; what follows is checked by the caller.
    private mutating func skipNumber() throws {
        func digits(_ reader: inout JSONChunkReader, atLeastOne: Bool) throws {
            var count = 0
            while try reader.available(), reader.buffer[reader.position].isDigit {
                reader.position += 1
                count += 1
            }
            if atLeastOne, count == 0 { throw reader.unexpectedHere("a digit") }
        }
        if buffer[position] == UInt8(ascii: "-") { position += 1 }
        guard try available() else { throw cutShort }
        if buffer[position] == UInt8(ascii: "0") { position += 1 } else { try digits(&self, atLeastOne: true) }
        if try available(), buffer[position] == UInt8(ascii: ".") {
            position += 1
            try digits(&self, atLeastOne: true)
        }
        if try available(), buffer[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if try available(),
                buffer[position] == UInt8(ascii: "+") || buffer[position] == UInt8(ascii: "-")
            {
                position += 1
            }
            try digits(&self, atLeastOne: true)
        }
    }

    /// True when a byte is at `position`, the next chunk read if need be.
    private mutating func available() throws -> Bool {
        if position < buffer.count { return true }
        return try fill()
    }

    /// Reads the next chunk into `buffer`, first dropping what was consumed (keeping a value being
    /// taken, unless it is past its limit); false at the end of the input.
    private mutating func fill() throws -> Bool {
        if let taken = taking, position - taken.start > taken.limit {
            taking = nil
            tookTooMuch = true
        }
        let keep = taking?.start ?? position
        if keep > 0 {
            buffer.removeSubrange(0..<keep)
            position -= keep
            dropped += keep
            if let taken = taking { taking = (taken.start - keep, taken.limit) }
        }
        guard let chunk = try nextChunk(), !chunk.isEmpty else { return false }
        buffer.append(contentsOf: chunk)
        return true
    }

    // MARK: Messages

    private var offset: Int { dropped + position }

    private static func quoted(_ byte: UInt8) -> String { "'\(String(UnicodeScalar(byte)))'" }

    private var cutShort: Broken { Broken(reason: "the input ends at byte \(offset), inside a value") }

    private func unexpected(_ byte: UInt8, _ wanted: String, at where: Int? = nil) -> Broken {
        let shown = (0x21..<0x7F).contains(byte) ? Self.quoted(byte) : "byte 0x\(String(byte, radix: 16))"
        return Broken(reason: "\(shown) at byte \(`where` ?? offset) where \(wanted) was expected")
    }

    private func unexpectedHere(_ wanted: String) -> Broken {
        guard position < buffer.count else { return cutShort }
        return unexpected(buffer[position], wanted)
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexDigit: Bool { isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20) }
}
