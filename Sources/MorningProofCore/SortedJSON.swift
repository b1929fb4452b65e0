import Foundation

/// JSON text for scripts and clients: exactly the bytes of `JSONEncoder` with `[.sortedKeys,
/// .withoutEscapingSlashes]` and its default strategies (keys in UTF-8 order, numbers as Swift
/// writes them without a trailing ".0", `Date` as seconds since 2001, `Data` as Base64, `URL` as
/// its absolute string), with less work than `JSONEncoder` (`report --json` on 30 habits x 5 years:
/// `JSONEncoder` takes 8% to 15% more wall time, docs/benchmarks.md).
/// The CLI's `--json`, the server's bodies and the JSON we store or send write through it. `NodeEncoder`
/// (SortedJSONEncoder.swift) turns a value into nodes; `Writer` writes them.
///
/// One difference, of no use to anyone: two keys of one object that differ in bytes but are the same
/// Swift string (é and e + U+0301) are both written; `JSONEncoder` keeps one.
public enum SortedJSON {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let node = try NodeEncoder(parent: nil, key: nil).node(of: value)
        var writer = Writer()
        try writer.write(node, depth: 0)
        return writer.bytes
    }

    public static func string<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }
}

/// A value on its way to text: what an `Encodable` said, before the keys are sorted.
enum Node {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case number(String)
    case string(String)
    case object(ObjectNode)
    case array(ArrayNode)
}

final class ObjectNode {
    var keys: [String] = []
    var values: [Node] = []

    func set(_ key: String, _ value: Node) {
        keys.append(key)
        values.append(value)
    }
}

final class ArrayNode {
    var items: [Node] = []
}

/// Writes nodes as JSON text, keys sorted by their UTF-8 bytes.
private struct Writer {
    static let maximumDepth = 512
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(4096) }

    mutating func write(_ node: Node, depth: Int) throws {
        switch node {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .int(let value): append(value.description)
        case .uint(let value): append(value.description)
        case .double(let value): appendNumber(value.description)
        case .float(let value): appendNumber(value.description)
        case .number(let text): append(text)
        case .string(let text): writeString(text)
        case .array(let array):
            guard depth < Self.maximumDepth else { throw Self.tooDeep }
            bytes.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(item, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard depth < Self.maximumDepth else { throw Self.tooDeep }
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for index in Self.sortedOrder(object.keys) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(object.keys[index])
                bytes.append(UInt8(ascii: ":"))
                try write(object.values[index], depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    static let tooDeep = EncodingError.invalidValue(
        0, .init(codingPath: [], debugDescription: "Too many nested arrays or dictionaries."))

    /// The indices of `keys` in UTF-8 order; of a key given twice, the later value wins.
    static func sortedOrder(_ keys: [String]) -> [Int] {
        let order = keys.indices.sorted { a, b in
            let (x, y) = (keys[a], keys[b])
            if x == y { return a < b }
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        var kept: [Int] = []
        kept.reserveCapacity(order.count)
        for index in order {
            if let last = kept.last, keys[last].utf8.elementsEqual(keys[index].utf8) {
                kept[kept.count - 1] = index
            } else {
                kept.append(index)
            }
        }
        return kept
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Swift's shortest form of a number, without the ".0" of a whole one (as JSONEncoder writes it).
    private mutating func appendNumber(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let whole = utf8.count >= 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            bytes.append(contentsOf: whole ? UnsafeBufferPointer(rebasing: utf8.dropLast(2)) : utf8)
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: bytes.append(UInt8(ascii: "\""))
                case 0x5C: bytes.append(UInt8(ascii: "\\"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
