import Foundation
import PropertyBased
import Testing

@testable import MorningProofCore

/// `SortedJSON` must write exactly what `JSONEncoder` with sorted keys and unescaped slashes writes.
@Suite struct SortedJSONTests {
    /// The reference: what the CLI and the server wrote before `SortedJSON`.
    static func foundation<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A reproducible source of random values (SplitMix64), one per checked seed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let characters: [Character] = [
        "a", "b", "Z", "0", "9", "-", "_", " ", "/", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}",
        "\u{01}", "\u{1F}", "\u{7F}", "é", "ß", "\u{2028}", "\u{200F}", "日", "😀", "👩‍👩‍👧",
    ]

    static func string(_ random: inout Random) -> String {
        String((0..<Int.random(in: 0...12, using: &random)).map { _ in characters.randomElement(using: &random)! })
    }

    static func double(_ random: inout Random) -> Double {
        switch Int.random(in: 0...5, using: &random) {
        case 0: return Double(Int.random(in: -1_000_000...1_000_000, using: &random))
        case 1: return Double(Int.random(in: -1000...1000, using: &random)) / 8
        case 2: return Double(Int.random(in: 0...10_000, using: &random)) / 10_000
        case 3: return Double(sign: .plus, exponent: Int.random(in: -60...70, using: &random), significand: 1.5)
        case 4: return [0, -0.0, 1e15, 1e16, 9_007_199_254_740_992, 1e-7, .ulpOfOne, .leastNonzeroMagnitude,
                        .greatestFiniteMagnitude].randomElement(using: &random)!
        default:
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 0.1
        }
    }

    struct Leaf: Codable, Equatable {
        var day: String
        var state: String
        var score: Double?
        var count: Int
    }

    /// Every kind of container and leaf a Codable type can write, nested.
    struct Sample: Encodable {
        var name: String
        var note: String?
        var numbers: [Double]
        var floats: [Float]
        var small: Int8
        var unsigned: UInt64
        var signed: Int64
        var flag: Bool
        var counts: [String: Int]
        var byNumber: [Int: String]
        var leaves: [Leaf]
        var optionals: [Int?]
        var when: Date
        var blob: Data
        var link: URL
        var amount: Decimal
        var empty: [String: Leaf]
        var hand: HandWritten
    }

    /// Nested containers, nils, a super encoder and a key given twice, as hand-written `encode(to:)`
    /// methods use them.
    struct HandWritten: Encodable {
        var words: [String]
        var value: Double

        enum Keys: String, CodingKey { case words, inner, list, missing, parent, twice, wrapped }
        enum Inner: String, CodingKey { case value, label }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .inner)
            try inner.encode(value, forKey: .value)
            try inner.encodeNil(forKey: .label)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            for word in words { try list.encode(word) }
            var pair = list.nestedUnkeyedContainer()
            try pair.encode(words.count)
            try pair.encodeNil()
            var keyed = list.nestedContainer(keyedBy: Inner.self)
            try keyed.encode(words.first ?? "", forKey: .label)
            try container.encodeNil(forKey: .missing)
            try container.encode(1, forKey: .twice)
            try container.encode(words.count, forKey: .twice)
            try Wrapped(value: value).encode(to: container.superEncoder(forKey: .parent))
            var single = container.superEncoder(forKey: .wrapped).singleValueContainer()
            try single.encode(words)
        }
    }

    /// A value that encodes through a single-value container, like a raw-value enum.
    struct Wrapped: Encodable {
        var value: Double
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    static func sample(_ random: inout Random) -> Sample {
        let leaves = (0..<Int.random(in: 0...5, using: &random)).map { _ in
            Leaf(
                day: string(&random), state: string(&random),
                score: Bool.random(using: &random) ? double(&random) : nil, count: Int.random(in: .min ... .max, using: &random))
        }
        var counts: [String: Int] = [:]
        for _ in 0..<Int.random(in: 0...6, using: &random) { counts[string(&random)] = Int.random(in: -9...999, using: &random) }
        var byNumber: [Int: String] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) { byNumber[Int.random(in: -20...20, using: &random)] = string(&random) }
        return Sample(
            name: string(&random), note: Bool.random(using: &random) ? string(&random) : nil,
            numbers: (0..<Int.random(in: 0...6, using: &random)).map { _ in double(&random) },
            floats: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                let float = Float(double(&random))
                return float.isFinite ? float : 0.5
            },
            small: Int8.random(in: .min ... .max, using: &random), unsigned: random.next(),
            signed: Int64.random(in: .min ... .max, using: &random), flag: Bool.random(using: &random),
            counts: counts, byNumber: byNumber, leaves: leaves,
            optionals: (0..<Int.random(in: 0...4, using: &random)).map { _ in Bool.random(using: &random) ? 7 : nil },
            when: Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)) + 0.25),
            blob: Data((0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            link: URL(string: "https://example.com/a/\(Int.random(in: 0...99, using: &random))?q=x%20y")!,
            amount: Decimal(Int.random(in: -9999...9999, using: &random)) / 100,
            empty: [:],
            hand: HandWritten(words: (0..<Int.random(in: 0...3, using: &random)).map { _ in string(&random) }, value: double(&random)))
    }

    @Test func randomValuesReadExactlyAsJSONEncoderWritesThem() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var random = Random(state: UInt64(seed))
            let value = Self.sample(&random)
            let (ours, reference) = (try? SortedJSON.string(value), try? Self.foundation(value))
            #expect(ours != nil && ours == reference, "seed \(seed)")
        }
    }

    @Test func topLevelFragmentsAndEdgeNumbers() throws {
        #expect(try SortedJSON.string("a/b\u{1}") == "\"a/b\\u0001\"")
        #expect(try SortedJSON.string(3.0) == "3")
        #expect(try SortedJSON.string([1e20, 1e-7, -0.0, 0.1]) == "[1e+20,1e-07,-0,0.1]")
        #expect(try SortedJSON.string(Optional<Int>.none) == "null")
        #expect(try SortedJSON.string(["b": 1, "B": 2, "a10": 3, "a9": 4]) == #"{"B":2,"a10":3,"a9":4,"b":1}"#)
        for value in [Date(timeIntervalSince1970: 0)] { #expect(try SortedJSON.string(value) == Self.foundation(value)) }
        #expect(try SortedJSON.string(Data([1, 2, 3])) == Self.foundation(Data([1, 2, 3])))
        #expect(try SortedJSON.string(Leaf(day: "d", state: "s", score: nil, count: 1)) == #"{"count":1,"day":"d","state":"s"}"#)
    }

    @Test func numbersJSONCannotHoldAreRefusedWithTheirPath() throws {
        let error = #expect(throws: EncodingError.self) {
            try SortedJSON.encode(["scores": [1, Double.nan]])
        }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.codingPath.map(\.stringValue) == ["scores", "Index 1"])
        #expect(throws: EncodingError.self) { try SortedJSON.encode(Leaf(day: "", state: "", score: .infinity, count: 0)) }
    }
}
