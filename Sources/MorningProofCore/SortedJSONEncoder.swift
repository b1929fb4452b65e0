import Foundation

/// Turns an `Encodable` into a `Node`; `parent` and `key` give the coding path, asked only on errors.
final class NodeEncoder: Encoder {
    let parent: NodeEncoder?
    let key: (any CodingKey)?
    var result: Node?

    init(parent: NodeEncoder?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: NodeEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectNode
        if case .object(let existing) = result {
            object = existing
        } else {
            object = ObjectNode()
            result = .object(object)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayNode
        if case .array(let existing) = result {
            array = existing
        } else {
            array = ArrayNode()
            result = .array(array)
        }
        return UnkeyedContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    /// The node of a value below this one (or of the top value when called on the root).
    func node<T: Encodable>(of value: T, key: (any CodingKey)? = nil) throws -> Node {
        // The common leaves without a trip through `encode(to:)`.
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .int(Int64(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Double.self { return try number(value as! Double, key: key) }
        // What JSONEncoder's default strategies write in place of the types' own encodings.
        if T.self == Date.self { return try number((value as! Date).timeIntervalSinceReferenceDate, key: key) }
        if T.self == Data.self { return .string((value as! Data).base64EncodedString()) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self {
            let decimal = value as! Decimal
            guard !decimal.isNaN else { throw invalid(decimal, key: key, "Decimal.nan") }
            return .number(decimal.description)
        }
        let child = NodeEncoder(parent: self, key: key)
        try value.encode(to: child)
        // A value that encodes nothing is an empty object, as with JSONEncoder.
        return child.result ?? .object(ObjectNode())
    }

    func number(_ value: Double, key: (any CodingKey)?) throws -> Node {
        guard value.isFinite else { throw invalid(value, key: key, "Double.\(value)") }
        return .double(value)
    }

    func number(_ value: Float, key: (any CodingKey)?) throws -> Node {
        guard value.isFinite else { throw invalid(value, key: key, "Float.\(value)") }
        return .float(value)
    }

    func invalid(_ value: Any, key: (any CodingKey)?, _ name: String) -> EncodingError {
        let path = codingPath + (key.map { [$0] } ?? [])
        return EncodingError.invalidValue(
            value, .init(codingPath: path, debugDescription: "Unable to encode \(name) directly in JSON."))
    }

    /// A container nested in this encoder's value, as its own encoder so that paths stay right.
    func nested(_ key: any CodingKey, _ node: Node) -> NodeEncoder {
        let encoder = NodeEncoder(parent: self, key: key)
        encoder.result = node
        return encoder
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    let object: ObjectNode

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(key.stringValue, try encoder.number(value, key: key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(key.stringValue, try encoder.number(value, key: key))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(key.stringValue, .int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(key.stringValue, .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(key.stringValue, .uint(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        object.set(key.stringValue, .uint(UInt64(value)))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        object.set(key.stringValue, .uint(UInt64(value)))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(key.stringValue, .uint(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try encoder.node(of: value, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectNode()
        object.set(key.stringValue, .object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder.nested(key, .object(nested)), object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        object.set(key.stringValue, .array(nested))
        return UnkeyedContainer(encoder: encoder.nested(key, .array(nested)), array: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: SuperKey.super) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let (object, index) = (object, object.keys.count)
        object.set(key.stringValue, .object(ObjectNode()))
        return SlotEncoder(encoder: NodeEncoder(parent: encoder, key: key)) { object.values[index] = $0 }
    }
}

private enum SuperKey: String, CodingKey { case `super` }

/// An index of an unkeyed container, as a coding key in error paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    let array: ArrayNode

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.items.count }
    private var nextKey: IndexKey { IndexKey(intValue: array.items.count) }

    mutating func encodeNil() throws { array.items.append(.null) }
    mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.items.append(try encoder.number(value, key: nextKey)) }
    mutating func encode(_ value: Float) throws { array.items.append(try encoder.number(value, key: nextKey)) }
    mutating func encode(_ value: Int) throws { array.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.items.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.items.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { array.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.items.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.items.append(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try encoder.node(of: value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey, nested = ObjectNode()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder.nested(key, .object(nested)), object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey, nested = ArrayNode()
        array.items.append(.array(nested))
        return UnkeyedContainer(encoder: encoder.nested(key, .array(nested)), array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let (array, index) = (array, array.items.count)
        array.items.append(.object(ObjectNode()))
        return SlotEncoder(encoder: NodeEncoder(parent: encoder, key: IndexKey(intValue: index))) { array.items[index] = $0 }
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    func encodeNil() throws { encoder.result = .null }
    func encode(_ value: Bool) throws { encoder.result = .bool(value) }
    func encode(_ value: String) throws { encoder.result = .string(value) }
    func encode(_ value: Double) throws { encoder.result = try encoder.number(value, key: nil) }
    func encode(_ value: Float) throws { encoder.result = try encoder.number(value, key: nil) }
    func encode(_ value: Int) throws { encoder.result = .int(Int64(value)) }
    func encode(_ value: Int8) throws { encoder.result = .int(Int64(value)) }
    func encode(_ value: Int16) throws { encoder.result = .int(Int64(value)) }
    func encode(_ value: Int32) throws { encoder.result = .int(Int64(value)) }
    func encode(_ value: Int64) throws { encoder.result = .int(value) }
    func encode(_ value: UInt) throws { encoder.result = .uint(UInt64(value)) }
    func encode(_ value: UInt8) throws { encoder.result = .uint(UInt64(value)) }
    func encode(_ value: UInt16) throws { encoder.result = .uint(UInt64(value)) }
    func encode(_ value: UInt32) throws { encoder.result = .uint(UInt64(value)) }
    func encode(_ value: UInt64) throws { encoder.result = .uint(value) }
    func encode<T: Encodable>(_ value: T) throws {
        encoder.result = try encoder.node(of: value)
    }
}

/// `superEncoder` of a container: what is encoded through it lands in the slot `store` writes
/// (under a key of an object, at an index of an array).
private final class SlotEncoder: Encoder {
    let encoder: NodeEncoder
    let slot: (Node) -> Void

    init(encoder: NodeEncoder, slot: @escaping (Node) -> Void) {
        self.encoder = encoder
        self.slot = slot
    }

    var codingPath: [any CodingKey] { encoder.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        defer { store() }
        return encoder.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { store() }
        return encoder.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SlotSingleValueContainer(inner: SingleValueContainer(encoder: encoder), store: store)
    }

    private func store() { slot(encoder.result ?? .object(ObjectNode())) }
}

/// A single value through a super encoder: stored in its slot once written.
private struct SlotSingleValueContainer: SingleValueEncodingContainer {
    let inner: SingleValueContainer
    let store: () -> Void

    var codingPath: [any CodingKey] { inner.codingPath }

    func encodeNil() throws { try inner.encodeNil(); store() }
    func encode(_ value: Bool) throws { try inner.encode(value); store() }
    func encode(_ value: String) throws { try inner.encode(value); store() }
    func encode(_ value: Double) throws { try inner.encode(value); store() }
    func encode(_ value: Float) throws { try inner.encode(value); store() }
    func encode(_ value: Int) throws { try inner.encode(value); store() }
    func encode(_ value: Int8) throws { try inner.encode(value); store() }
    func encode(_ value: Int16) throws { try inner.encode(value); store() }
    func encode(_ value: Int32) throws { try inner.encode(value); store() }
    func encode(_ value: Int64) throws { try inner.encode(value); store() }
    func encode(_ value: UInt) throws { try inner.encode(value); store() }
    func encode(_ value: UInt8) throws { try inner.encode(value); store() }
    func encode(_ value: UInt16) throws { try inner.encode(value); store() }
    func encode(_ value: UInt32) throws { try inner.encode(value); store() }
    func encode(_ value: UInt64) throws { try inner.encode(value); store() }
    func encode<T: Encodable>(_ value: T) throws { try inner.encode(value); store() }
}
