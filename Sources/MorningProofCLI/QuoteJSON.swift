import Foundation
import MorningProofCore

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
