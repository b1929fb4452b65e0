/// A quote's id as its file gives it: a string (`"kjv-proverbs-3-5"`) or a whole number (`293`,
/// as in the seed's `quotes.json`). It is written back with the same JSON type.
public enum QuoteID: Hashable, Sendable, Codable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    /// The text that makes ids unique: `293` and `"293"` are the same id.
    public var description: String {
        switch self {
        case .number(let value): String(value)
        case .string(let value): value
        }
    }

    /// As a message shows it: `"kjv-1"` in quotes, `293` bare, as in the file.
    public var quoted: String {
        switch self {
        case .number(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            throw DecodingError.typeMismatch(
                QuoteID.self,
                .init(codingPath: decoder.codingPath, debugDescription: "a quote id is a string or a whole number"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

extension QuoteID: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .number(value) }
}
