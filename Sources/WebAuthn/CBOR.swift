/// A CBOR item (RFC 8949) of the kinds a WebAuthn attestation object and a COSE key hold: whole
/// numbers, byte and text strings, arrays and maps. Nothing else is read.
public indirect enum CBORValue: Hashable, Sendable {
    case unsigned(UInt64)
    /// A negative number, as its value (-1 - n for the encoded n).
    case negative(Int64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    case map([CBORValue: CBORValue])

    /// The value of a map's entry under `key`; nil for anything else.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        return entries[key]
    }

    /// A whole number, signed, where it fits in an `Int64`.
    public var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value
        default: nil
        }
    }

    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    public var textString: String? {
        if case .text(let text) = self { text } else { nil }
    }
}

/// A strict, bounded CBOR reader: definite lengths only, no tags, floats or simple values, a
/// nesting depth and a number of entries per container that a passkey never comes near, and no
/// length believed before the bytes are there. Anything else is `WebAuthnError.malformed` or
/// `.unsupported`, never a crash or a large allocation.
public struct CBORReader {
    /// Containers inside containers: an attestation object is 3 deep (its x5c certificates).
    public static let maxDepth = 8
    /// Entries of one array or map (a COSE key has 5, an attestation statement a handful).
    public static let maxEntries = 64

    private let bytes: [UInt8]
    private(set) var offset: Int

    private init(_ bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The one item that `bytes` holds, with nothing after it.
    public static func decode(_ bytes: [UInt8], what: String) throws -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0, what: what)
        guard end == bytes.count else {
            throw WebAuthnError.malformed("\(what): \(bytes.count - end) bytes after its CBOR item")
        }
        return value
    }

    /// The item that starts at `start` in `bytes`, and the offset just after it.
    public static func decodePrefix(_ bytes: [UInt8], from start: Int, what: String) throws -> (CBORValue, Int) {
        var reader = CBORReader(bytes, offset: start)
        do {
            let value = try reader.item(depth: 0)
            return (value, reader.offset)
        } catch let error as WebAuthnError {
            throw WebAuthnError(error.code, "\(what): \(error.message)")
        }
    }

    private mutating func item(depth: Int) throws -> CBORValue {
        guard depth <= Self.maxDepth else {
            throw WebAuthnError.unsupported("CBOR nested more than \(Self.maxDepth) deep")
        }
        let initial = try take(1)[0]
        let major = initial >> 5
        let argument = try self.argument(initial & 0x1F, major: major)
        switch major {
        case 0: return .unsigned(argument)
        case 1:
            guard argument < UInt64(Int64.max) else { throw WebAuthnError.unsupported("a negative number below -2^63") }
            return .negative(-1 - Int64(argument))
        case 2: return .bytes(try take(argument))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else {
                throw WebAuthnError.malformed("a text string that is not UTF-8 at byte \(offset)")
            }
            return .text(text)
        case 4:
            try checkEntries(argument)
            var items: [CBORValue] = []
            for _ in 0..<argument { items.append(try item(depth: depth + 1)) }
            return .array(items)
        case 5:
            try checkEntries(argument)
            var entries: [CBORValue: CBORValue] = [:]
            for _ in 0..<argument {
                let key = try item(depth: depth + 1)
                guard entries.updateValue(try item(depth: depth + 1), forKey: key) == nil else {
                    throw WebAuthnError.malformed("a map with the key \(key) twice")
                }
            }
            return .map(entries)
        default:
            throw WebAuthnError.unsupported("CBOR major type \(major) (tags, floats and simple values are not read)")
        }
    }

    /// The number after the initial byte; indefinite lengths (31) and the reserved 28...30 refused.
    private mutating func argument(_ info: UInt8, major: UInt8) throws -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            return try take(UInt64(1) << (info - 24)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        default:
            throw WebAuthnError.unsupported("CBOR additional information \(info) (indefinite lengths are not read)")
        }
    }

    private func checkEntries(_ count: UInt64) throws {
        guard count <= UInt64(Self.maxEntries) else {
            throw WebAuthnError.unsupported("a CBOR container of \(count) entries (at most \(Self.maxEntries))")
        }
        // Each entry takes a byte at least: a count past what is left is a lie, known at once.
        guard count <= UInt64(bytes.count - offset) else {
            throw WebAuthnError.malformed("a CBOR container of \(count) entries in \(bytes.count - offset) bytes")
        }
    }

    private mutating func take(_ count: UInt64) throws -> [UInt8] {
        guard count <= UInt64(bytes.count - offset) else {
            throw WebAuthnError.malformed(
                "CBOR ends early (\(count) bytes wanted at byte \(offset), \(bytes.count - offset) left)")
        }
        let end = offset + Int(count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
