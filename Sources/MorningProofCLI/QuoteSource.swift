import Foundation
import MorningProofCore
import MorningProofStore

/// Where the quotes come from: `config set quotes.file PATH`, else the built-in set.
enum QuoteSource {
    /// The value of `quotes.file` that means the built-in set.
    static let builtInName = "builtin"

    /// Reads and checks a quotes file; a missing file is `noInput`, a bad one `dataError` with the line.
    static func read(path: String) throws -> QuoteBook {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MorningProofError.noInput("\(path): no such quotes file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MorningProofError.ioError("\(path): cannot read the quotes file")
        }
        return try QuoteBook.parse(data, name: path)
    }

    /// The quotes in force.
    static func load(_ database: AppDatabase) throws -> QuoteBook {
        guard let path = try database.setting(SettingKey.quotesFile), path != builtInName else {
            return QuoteBook.builtIn()
        }
        return try read(path: path)
    }

    /// The quotes in force, or the built-in set with a warning on stderr when the file went bad, so a
    /// broken quotes file never keeps the gate from answering.
    static func loadForGate(_ database: AppDatabase) -> QuoteBook {
        do {
            return try load(database)
        } catch {
            Console.error("morningproof: \(error); showing the built-in quotes")
            return QuoteBook.builtIn()
        }
    }

    /// `config set quotes.file`: an absolute path to a file that parses, or `builtin`.
    static func checkSetting(_ value: String) throws -> String {
        if value == builtInName { return value }
        let path =
            value.hasPrefix("/")
            ? value : FileManager.default.currentDirectoryPath + "/" + value
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        _ = try read(path: standardized)
        return standardized
    }
}

/// A quote as scripts see it.
struct QuoteJSON: Encodable {
    var date: String
    var window: Int
    var startsAt: String
    var index: Int
    var id: QuoteID
    var text: String
    var author: String
    var bookTitle: String
    var url: String?
    var asin: String?
    var coverImageURL: String?
    /// Where to find the book (from `asin`); text output only.
    var bookPageURL: String?

    init(_ slot: QuoteSchedule.Slot, book: QuoteBook) {
        let quote = book.active[slot.index]
        date = slot.date.description
        window = slot.window
        startsAt = slot.startsAt
        index = slot.index
        id = quote.id
        text = quote.text
        author = quote.author
        bookTitle = quote.bookTitle
        url = quote.url
        asin = quote.asin
        coverImageURL = quote.coverImageURL
        bookPageURL = quote.bookPageURL
    }

    enum CodingKeys: String, CodingKey {
        case date, window, startsAt, index, id, text, author, bookTitle, url, asin, coverImageURL
    }

    /// For people: the text, then who said it and where, then where to find the book if known.
    var lines: [String] {
        ["“\(text)”", "    — \(author), \(bookTitle)"] + (bookPageURL.map { ["    Find the book: \($0)"] } ?? [])
    }
}
