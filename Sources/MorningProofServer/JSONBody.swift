import Foundation
import Hummingbird
import MorningProofCore

/// A request's JSON object, read within the body limit, with typed access to its fields.
/// Fields the route does not know are refused, as the committed spec says (additionalProperties: false).
struct JSONBody {
    let fields: [String: JSONValue]

    /// Reads the body: 413 past `limit` bytes (checked while it streams), 400 when it is not JSON
    /// or not an object. A route that takes a token checks it first.
    static func read(_ request: Request, limit: Int, allowed: Set<String>) async throws -> JSONBody {
        let buffer = try await BodyLimit(bytes: limit, what: "the request body").collect(request)
        guard let value = JSONValue.parse(Data(buffer.readableBytesView)) else {
            throw APIError.badRequest("the request body is not JSON", code: "invalid_json")
        }
        guard case .object(let fields) = value else {
            throw APIError.badRequest("the request body must be a JSON object", code: "invalid_json")
        }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw APIError.badRequest(
                "unknown field \"\(unknown)\" (fields: \(allowed.sorted().joined(separator: ", ")))")
        }
        return JSONBody(fields: fields)
    }

    func string(_ key: String) throws -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let text) = value else { throw Self.wrongType(key, "a string") }
        return text
    }

    /// True when the field is given as `null`: an edit clears it.
    func isNull(_ key: String) -> Bool {
        if case .null = fields[key] { return true }
        return false
    }

    func requiredString(_ key: String) throws -> String {
        guard let text = try string(key) else { throw APIError.badRequest("\"\(key)\" is missing") }
        return text
    }

    func number(_ key: String) throws -> Double? {
        guard let value = fields[key] else { return nil }
        guard case .number(let number) = value else { throw Self.wrongType(key, "a number") }
        return number
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let flag) = value else { throw Self.wrongType(key, "true or false") }
        return flag
    }

    /// A whole number within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let number = try number(key) else { return nil }
        return try Self.whole(number, key, in: range, "a whole number")
    }

    /// A list of whole numbers within `range` (a list of ids).
    func integers(_ key: String, in range: ClosedRange<Int>) throws -> [Int]? {
        guard let value = fields[key] else { return nil }
        guard case .array(let values) = value else { throw Self.wrongType(key, "a list of whole numbers") }
        return try values.map { value in
            guard case .number(let number) = value else { throw Self.wrongType(key, "a list of whole numbers") }
            return try Self.whole(number, key, in: range, "whole numbers")
        }
    }

    private static func whole(_ number: Double, _ key: String, in range: ClosedRange<Int>, _ what: String) throws -> Int
    {
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw wrongType(key, "\(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    /// A string, or a number given as one (a goal's `8000` or `"7h30m"`).
    func text(_ key: String) throws -> String? {
        guard let value = fields[key] else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let number):
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        default: throw Self.wrongType(key, "a string or a number")
        }
    }

    func object(_ key: String) throws -> [String: JSONValue]? {
        guard let value = fields[key] else { return nil }
        guard case .object(let object) = value else { throw Self.wrongType(key, "an object") }
        return object
    }

    /// A required string field of this object when it is the field `outer` of a body, named
    /// `outer.key` in messages (`"keys.auth" is missing`).
    func requiredString(_ key: String, in outer: String) throws -> String {
        switch fields[key] {
        case .string(let text)?: return text
        case nil, .null?: throw APIError.badRequest("\"\(outer).\(key)\" is missing")
        default: throw APIError.badRequest("\"\(outer).\(key)\" must be a string")
        }
    }

    /// An object field that sets or removes something: nil when left out, `.some(nil)` for null (to
    /// remove), else its object, whose fields must be among `allowed`.
    func setting(_ key: String, allowed: Set<String>) throws -> JSONBody?? {
        switch fields[key] {
        case nil: return nil
        case .null?: return .some(nil)
        case .object(let fields)?:
            if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw APIError.badRequest(
                    "unknown field \"\(key).\(unknown)\" (fields: \(allowed.sorted().joined(separator: ", ")))")
            }
            return .some(JSONBody(fields: fields))
        default: throw APIError.badRequest("\"\(key)\" must be an object or null")
        }
    }

    private static func wrongType(_ key: String, _ type: String) -> APIError {
        .badRequest("\"\(key)\" must be \(type)")
    }
}
