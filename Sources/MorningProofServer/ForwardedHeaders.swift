import HTTPTypes
import MorningProofService

/// What a proxy's headers say about the client, read without judging whom to trust (that is
/// `TrustedProxies.origin`). `X-Forwarded-For` is read when present, else `Forwarded` (RFC 7239):
/// nginx and Caddy set the first and pass a client's own `Forwarded` on untouched, so preferring
/// `Forwarded` would let any client name itself.
struct ForwardedHeaders: Sendable, Equatable {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    static let forwardedHost = HTTPField.Name("X-Forwarded-Host")!
    static let forwarded = HTTPField.Name("Forwarded")!

    /// The hops from the first client to the last proxy before the peer, left to right; nil for a
    /// hop that is not an address (`unknown`, an obfuscated name, garbage). A malformed header is one nil.
    var clients: [ClientAddress?] = []
    /// `http` or `https`, lower-cased; nil when not said or not one of them.
    var scheme: String?
    /// The host and port the client asked for; nil when not said or not a host.
    var host: String?

    init(_ headers: HTTPFields, authority: String? = nil) {
        let elements = Self.joined(headers[values: Self.forwarded]).map(Self.forwardedElements)
        if let list = Self.joined(headers[values: Self.forwardedFor]) {
            clients = list.split(separator: ",", omittingEmptySubsequences: false).map { Self.address(inListEntry: $0) }
        } else if let elements {
            clients = elements?.map { $0["for"].flatMap(Self.address(inNode:)) } ?? [nil]
        }
        let proto =
            Self.joined(headers[values: Self.forwardedProto]).flatMap(Self.lastItem) ?? elements??.last?["proto"]
        scheme = proto.map { $0.lowercased() }.flatMap { ["http", "https"].contains($0) ? $0 : nil }
        let named = Self.joined(headers[values: Self.forwardedHost]).flatMap(Self.lastItem) ?? elements??.last?["host"]
        host = (named ?? authority).flatMap(Self.checkedHost)
    }

    private static func joined(_ values: [String]) -> String? {
        values.isEmpty ? nil : values.joined(separator: ",")
    }

    private static func lastItem(_ list: String) -> String? {
        list.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A host name or address literal with an optional port, as a URL may carry it.
    static func checkedHost(_ text: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard !text.isEmpty, text.count <= 260, text.allSatisfy(allowed.contains) else { return nil }
        return text.lowercased()
    }

    /// One `X-Forwarded-For` entry: `192.0.2.1`, `2001:db8::1`, or either with a port (`192.0.2.1:4711`,
    /// `[2001:db8::1]:4711`).
    static func address(inListEntry entry: Substring) -> ClientAddress? {
        let text = entry.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("[") { return address(inNode: text) }
        if let address = ClientAddress(text) { return address }
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[1].allSatisfy(\.isNumber) else { return nil }
        return ClientAddress(parts[0])
    }

    /// An RFC 7239 node (already unquoted): `192.0.2.1`, `192.0.2.1:4711`, `[2001:db8::1]`,
    /// `[2001:db8::1]:4711`; nil for `unknown`, an obfuscated `_name`, or anything else.
    static func address(inNode node: String) -> ClientAddress? {
        guard node.hasPrefix("[") else {
            let parts = node.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.count == 1 || isPort(parts[1]) else { return nil }
            return ClientAddress(parts[0]).flatMap { $0.isIPv6 ? nil : $0 }
        }
        guard let close = node.firstIndex(of: "]") else { return nil }
        let rest = node[node.index(after: close)...]
        guard rest.isEmpty || (rest.first == ":" && isPort(rest.dropFirst())) else { return nil }
        return ClientAddress(node[node.index(after: node.startIndex)..<close])
    }

    /// A port (digits) or an obfuscated port (`_` and token characters).
    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && (text.allSatisfy(\.isNumber) || (text.first == "_" && text.allSatisfy(isTokenCharacter)))
    }

    /// `Forwarded`'s elements, each its parameters by lower-cased name (RFC 7239 §4:
    /// `for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"`); nil when it is not that grammar.
    static func forwardedElements(_ text: String) -> [[String: String]]? {
        var elements: [[String: String]] = [[:]]
        var characters = text[...]
        while true {
            characters = characters.drop { $0 == " " || $0 == "\t" }
            if characters.isEmpty { break }
            let name = characters.prefix(while: isTokenCharacter)
            characters = characters.dropFirst(name.count)
            guard !name.isEmpty, characters.first == "=" else { return nil }
            characters = characters.dropFirst()
            guard let (value, rest) = tokenOrQuoted(characters) else { return nil }
            guard elements[elements.count - 1].updateValue(value, forKey: name.lowercased()) == nil else { return nil }
            characters = rest.drop { $0 == " " || $0 == "\t" }
            switch characters.first {
            case nil: return elements
            case ";": characters = characters.dropFirst()
            case ",":
                characters = characters.dropFirst()
                elements.append([:])
            default: return nil
            }
        }
        return elements.last?.isEmpty == false ? elements : nil
    }

    /// A token, or a quoted string with its escapes undone, and what follows it.
    private static func tokenOrQuoted(_ text: Substring) -> (String, Substring)? {
        guard text.first == "\"" else {
            let token = text.prefix(while: isTokenCharacter)
            return token.isEmpty ? nil : (String(token), text.dropFirst(token.count))
        }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return (value, text[text.index(after: index)...]) }
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
            }
            value.append(text[index])
            index = text.index(after: index)
        }
        return nil
    }

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "!#$%&'*+-.^_`|~".contains(character))
    }
}
