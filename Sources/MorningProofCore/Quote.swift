import Foundation

/// One quote of a quotes file.
public struct Quote: Codable, Hashable, Sendable {
    /// A stable identifier, unique in its file: a string (such as `"kjv-proverbs-3-5"`) or a
    /// whole number (such as `293`); `293` and `"293"` count as the same id.
    public var id: QuoteID
    public var text: String
    public var author: String
    /// Where it comes from: a book, a chapter and verse, a letter.
    public var bookTitle: String
    /// An identifier of the source, shared by quotes from the same book (such as `"kjv-proverbs"`).
    public var bookId: String
    public var tags: [String]
    /// Inactive quotes stay in the file but never show.
    public var isActive: Bool
    /// The day it was added, `YYYY-MM-DD`.
    public var dateAdded: String
    /// A page with the source text, if any.
    public var url: String?
    /// The book's Amazon Standard Identification Number (letters and digits), if any.
    public var asin: String?
    /// A picture of the book's cover, if any.
    public var coverImageURL: String?

    /// The book's page on Amazon, when the quote has an asin.
    public var bookPageURL: String? { asin.map { "https://www.amazon.com/dp/\($0)" } }

    public init(
        id: QuoteID, text: String, author: String, bookTitle: String, bookId: String, tags: [String] = [],
        isActive: Bool = true, dateAdded: String, url: String? = nil, asin: String? = nil,
        coverImageURL: String? = nil
    ) {
        self.id = id
        self.text = text
        self.author = author
        self.bookTitle = bookTitle
        self.bookId = bookId
        self.tags = tags
        self.isActive = isActive
        self.dateAdded = dateAdded
        self.url = url
        self.asin = asin
        self.coverImageURL = coverImageURL
    }
}

/// A parsed quotes file: every quote in file order, and the active ones the schedule picks from.
public struct QuoteBook: Sendable {
    public let quotes: [Quote]
    /// Active quotes, in file order.
    public let active: [Quote]
    public let schedule: QuoteSchedule

    /// The default set compiled into the program: `Quotes/default-quotes.json`, embedded by SwiftPM,
    /// parsed once per process. A test checks that it parses; should a build embed a broken file,
    /// this is the data error that names it, never a crash.
    public static func builtIn(_ set: BuiltInQuotes = .all) throws -> QuoteBook {
        let all = try builtInParsed.get()
        switch set {
        case .all: return all
        case .general:
            return try checked(all.quotes.filter { !$0.tags.contains(BuiltInQuotes.scriptureTag) }, name: set.rawValue)
        }
    }

    private static let builtInParsed = Result {
        try parse(Data(PackageResources.default_quotes_json), name: "built-in quotes")
    }

    /// Parses and checks a quotes file: a JSON array of quotes. A bad file is refused with the line
    /// and the reason, as a data error.
    public static func parse(_ data: Data, name: String) throws -> QuoteBook {
        func refuse(_ line: Int?, _ reason: String) -> MorningProofError {
            .dataError("\(name)\(line.map { ", line \($0)" } ?? ""): \(reason)")
        }
        let elementLines = JSONLines.topLevelElementLines(in: data)
        var quotes: [Quote]
        do {
            quotes = try JSONDecoder().decode([Quote].self, from: data)
        } catch let error as DecodingError {
            let (line, reason) = JSONLines.explain(error, elementLines: elementLines, data: data)
            throw refuse(line, reason)
        }
        var seen: [String: Int] = [:]
        for (index, quote) in quotes.enumerated() {
            let line = index < elementLines.count ? elementLines[index] : nil
            let key = quote.id.description
            if key.trimmingCharacters(in: .whitespaces).isEmpty {
                throw refuse(line, "quote \(index + 1) has an empty id")
            }
            if let first = seen[key] {
                // 293 and "293" are one id: a script that reads ids as text could not tell them apart.
                let other = quotes[first].id == quote.id ? "" : ", as \(quotes[first].id.quoted)"
                throw refuse(line, "id \(quote.id.quoted) is used twice (first by quote \(first + 1)\(other))")
            }
            seen[key] = index
            // An empty asin or cover is no asin or cover.
            for path in [\Quote.asin, \Quote.coverImageURL]
            where quotes[index][keyPath: path]?.trimmingCharacters(in: .whitespaces).isEmpty == true {
                quotes[index][keyPath: path] = nil
            }
            if let asin = quotes[index].asin,
                !asin.unicodeScalars.allSatisfy({
                    ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                })
            {
                throw refuse(
                    line, "quote \"\(quote.id)\": asin \"\(asin)\" should be letters and digits, such as B000FC1PJI")
            }
            for (field, value) in [("text", quote.text), ("author", quote.author), ("bookTitle", quote.bookTitle)]
            where value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw refuse(line, "quote \"\(quote.id)\" has an empty \(field)")
            }
            if LocalDay(quote.dateAdded) == nil {
                throw refuse(line, "quote \"\(quote.id)\": dateAdded \"\(quote.dateAdded)\" is not a YYYY-MM-DD day")
            }
        }
        return try checked(quotes, name: name)
    }

    /// The book of `quotes` (checked one by one already): refused when none is active.
    private static func checked(_ quotes: [Quote], name: String) throws -> QuoteBook {
        let active = quotes.filter(\.isActive)
        guard let schedule = QuoteSchedule(activeCount: active.count) else {
            throw MorningProofError.dataError(
                "\(name): " + (quotes.isEmpty ? "the file holds no quotes" : "no quote is active (isActive: true)"))
        }
        return QuoteBook(quotes: quotes, active: active, schedule: schedule)
    }
}

/// Which of the built-in quotes are shown: all of them, or the general ones (no scripture), as the
/// check-in's preset chose. The raw value is what `quotes.file` holds for it.
public enum BuiltInQuotes: String, CaseIterable, Sendable {
    /// Every built-in quote (the faith preset's, and the default).
    case all = "builtin"
    /// The built-in quotes not tagged `scripture` (the general preset's).
    case general = "builtin-general"

    /// The tag of the built-in quotes from the Bible.
    public static let scriptureTag = "scripture"
}

/// Line numbers inside a JSON text, for error messages a person can act on.
enum JSONLines {
    /// The 1-based line on which each element of the top-level array starts.
    static func topLevelElementLines(in data: Data) -> [Int] {
        var lines: [Int] = []
        var line = 1, depth = 0
        var inString = false, escaped = false, expectingElement = false
        for byte in data {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: ","):
                if depth == 1 { expectingElement = true }
                continue
            default: break
            }
            if depth == 1 && expectingElement && byte != UInt8(ascii: "]") {
                lines.append(line)
                expectingElement = false
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectingElement = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return lines
    }

    /// The line and a reason for a decoding error.
    static func explain(_ error: DecodingError, elementLines: [Int], data: Data) -> (Int?, String) {
        func where_(_ path: [CodingKey]) -> (Int?, String) {
            guard let index = path.first?.intValue else { return (nil, "") }
            let line = index < elementLines.count ? elementLines[index] : nil
            let field = path.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (line, "quote \(index + 1)" + (field.isEmpty ? "" : " field \(field.dropFirst())"))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let (line, place) = where_(context.codingPath)
            return (line, "\(place) lacks the field \"\(key.stringValue)\"")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            if context.codingPath.isEmpty { return (1, "a quotes file is a JSON array of quotes") }
            let (line, place) = where_(context.codingPath)
            return (line, "\(place) should be \(describe(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return syntaxError(context, data: data)
            }
            let (line, place) = where_(context.codingPath)
            return (line, "\(place): \(context.debugDescription)")
        @unknown default:
            return (nil, "\(error)")
        }
    }

    /// Not JSON at all: the parser's own position when it gives one.
    static func syntaxError(_ context: DecodingError.Context, data: Data) -> (Int?, String) {
        var texts = [context.debugDescription]
        // JSONDecoder on Linux gives no position; JSONSerialization says "around character N".
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            texts.insert((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)", at: 0)
        }
        if let underlying = context.underlyingError {
            texts.append("\(underlying)")
            texts.append((underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "")
        }
        for text in texts {
            if let range = text.range(of: #"line (\d+)"#, options: .regularExpression),
                let line = Int(text[range].dropFirst(5))
            {
                return (line, "not valid JSON: \(text)")
            }
            if let range = text.range(of: #"character (\d+)"#, options: .regularExpression),
                let offset = Int(text[range].dropFirst(10))
            {
                // The offset counts bytes; the line is what a person can find.
                let line = data.prefix(offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                var reason = text.replacingOccurrences(
                    of: #" *(around|at) character \d+\.?"#, with: "", options: .regularExpression)
                reason = reason.prefix(1).lowercased() + reason.dropFirst()
                return (line, "not valid JSON: \(reason)")
            }
        }
        if data.allSatisfy({ [0x20, 0x0A, 0x09, 0x0D].contains($0) }) { return (1, "the file is empty") }
        if texts.contains(where: { $0.lowercased().contains("end of file") }) {
            let end = data.lastIndex { ![0x20, 0x0A, 0x09, 0x0D].contains($0) } ?? data.startIndex
            let lines = data[..<end].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            return (lines, "not valid JSON: the file ends before the array is closed")
        }
        return (nil, "not valid JSON: \(texts.first { !$0.isEmpty } ?? "unreadable")")
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        case is QuoteID.Type: "a string or a whole number"
        default: "\(type)"
        }
    }
}
